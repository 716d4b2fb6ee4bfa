import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { readConfig } from '../src/config.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('readConfig', () => {
  it('has defaults for everything', () => {
    const config = readConfig({});
    expect(config).to.include({
      port: 3002,
      host: '127.0.0.1',
      itinerarySeed: undefined,
      logRequests: true,
      metrics: true,
    });
    expect(config.destinationsFile).to.equal(join(root, '..', 'seeds', 'destinations.json'));
    expect(config.corsOrigins).to.deep.equal(['*']);
  });

  it('reads the environment', () => {
    const config = readConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      ITINERARY_SEED: 'abc',
      DESTINATIONS_FILE: '/data/d.json',
      LOG_REQUESTS: 'false',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      METRICS: 'false',
    });
    expect(config).to.deep.equal({
      port: 8080,
      host: '0.0.0.0',
      itinerarySeed: 'abc',
      destinationsFile: '/data/d.json',
      logRequests: false,
      corsOrigins: ['https://a.example', 'https://b.example'],
      metrics: false,
      shutdownDelayMs: 0,
    });
  });
});
