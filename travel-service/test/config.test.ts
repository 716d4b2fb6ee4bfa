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
      cacheMaxBytes: 33_554_432,
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
      CACHE_MAX_BYTES: '0',
      METRICS: 'false',
    });
    expect(config).to.deep.equal({
      port: 8080,
      host: '0.0.0.0',
      itinerarySeed: 'abc',
      destinationsFile: '/data/d.json',
      logRequests: false,
      corsOrigins: ['https://a.example', 'https://b.example'],
      cacheMaxBytes: 0,
      metrics: false,
    });
  });

  it('reads CORS_ORIGINS as a list; empty turns CORS off', () => {
    expect(readConfig({ CORS_ORIGINS: '*' }).corsOrigins).to.deep.equal(['*']);
    expect(readConfig({ CORS_ORIGINS: ' https://a.example ,,' }).corsOrigins).to.deep.equal([
      'https://a.example',
    ]);
    expect(readConfig({ CORS_ORIGINS: '' }).corsOrigins).to.deep.equal([]);
  });

  it('rejects a port that is not one', () => {
    for (const port of ['abc', '-1', '70000', '1.5']) {
      expect(() => readConfig({ PORT: port }), port).to.throw(/PORT must be a whole number/);
    }
  });
});
