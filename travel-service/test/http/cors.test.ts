import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { seededItineraries as itineraries, request, seededApp } from '../helpers.js';

describe('CORS', () => {
  const app = seededApp().callback();

  it('answers a preflight on the API for any origin by default', async () => {
    const res = await request(app)
      .options('/api/itineraries')
      .set('Origin', 'https://example.com')
      .set('Access-Control-Request-Method', 'GET')
      .expect(204);
    expect(res.headers['access-control-allow-origin']).to.equal('*');
    // A read-only API: a preflight never invites a write.
    expect(res.headers['access-control-allow-methods']).to.equal('GET,HEAD');
  });

  it('marks API responses readable cross-origin, pages not', async () => {
    for (const path of ['/api/itineraries/kyoto', '/healthz', '/openapi.json']) {
      const api = await request(app).get(path).set('Origin', 'https://example.com');
      expect(api.headers['access-control-allow-origin'], path).to.equal('*');
      expect(api.headers['access-control-expose-headers'], path).to.include('ETag');
    }
    for (const path of ['/', '/docs', '/itineraries/kyoto']) {
      const page = await request(app).get(path).set('Origin', 'https://example.com');
      expect(page.headers['access-control-allow-origin'], path).to.equal(undefined);
    }
  });

  it('allows only the configured origins, also when the answer comes from the cache', async () => {
    const strict = createApp({ itineraries, corsOrigins: ['https://good.example'] }).callback();
    for (let i = 0; i < 2; i++) {
      const good = await request(strict)
        .get('/api/itineraries/kyoto')
        .set('Origin', 'https://good.example');
      expect(good.headers['access-control-allow-origin']).to.equal('https://good.example');
      expect(good.headers.vary).to.match(/Origin/);
      const bad = await request(strict)
        .get('/api/itineraries/kyoto')
        .set('Origin', 'https://evil.example');
      expect(bad.headers['access-control-allow-origin']).to.equal(undefined);
    }
  });

  it('can be turned off', async () => {
    const closed = createApp({ itineraries, corsOrigins: [] }).callback();
    const res = await request(closed)
      .get('/api/itineraries/kyoto')
      .set('Origin', 'https://example.com');
    expect(res.headers['access-control-allow-origin']).to.equal(undefined);
  });
});
