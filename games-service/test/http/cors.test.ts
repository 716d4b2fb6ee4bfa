import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { seededCatalogue as catalogue, request, seededApp } from '../helpers.js';

describe('CORS', () => {
  const app = seededApp().callback();

  it('answers a preflight on the API for any origin by default', async () => {
    const res = await request(app)
      .options('/api/games')
      .set('Origin', 'https://example.com')
      .set('Access-Control-Request-Method', 'GET')
      .expect(204);
    expect(res.headers['access-control-allow-origin']).to.equal('*');
    // A read-only API: a preflight never invites a write.
    expect(res.headers['access-control-allow-methods']).to.equal('GET,HEAD');
  });

  it('marks API responses readable cross-origin, pages not', async () => {
    const api = await request(app).get('/api/games/1').set('Origin', 'https://example.com');
    expect(api.headers['access-control-allow-origin']).to.equal('*');
    expect(api.headers['access-control-expose-headers']).to.include('ETag');
    const page = await request(app).get('/').set('Origin', 'https://example.com');
    expect(page.headers['access-control-allow-origin']).to.equal(undefined);
  });

  it('allows only the configured origins', async () => {
    const strict = createApp({ catalogue, corsOrigins: ['https://good.example'] }).callback();
    for (let i = 0; i < 2; i++) {
      const good = await request(strict).get('/api/games/1').set('Origin', 'https://good.example');
      expect(good.headers['access-control-allow-origin']).to.equal('https://good.example');
      expect(good.headers.vary).to.match(/Origin/);
      const bad = await request(strict).get('/api/games/1').set('Origin', 'https://evil.example');
      expect(bad.headers['access-control-allow-origin']).to.equal(undefined);
    }
  });

  it('can be turned off', async () => {
    const closed = createApp({ catalogue, corsOrigins: [] }).callback();
    const res = await request(closed).get('/api/games/1').set('Origin', 'https://example.com');
    expect(res.headers['access-control-allow-origin']).to.equal(undefined);
  });
});
