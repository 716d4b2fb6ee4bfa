import { expect } from 'chai';
import { request, seededApp } from '../helpers.js';

describe('CORS', () => {
  it('answers a preflight on the API for any origin by default, for reads only; pages have none', async () => {
    const app = seededApp().callback();
    const res = await request(app)
      .options('/api/itineraries')
      .set('Origin', 'https://example.com')
      .set('Access-Control-Request-Method', 'GET')
      .expect(204);
    expect(res.headers['access-control-allow-origin']).to.equal('*');
    // A read-only API: a preflight never invites a write.
    expect(res.headers['access-control-allow-methods']).to.equal('GET,HEAD');
    const page = await request(app).get('/').set('Origin', 'https://example.com');
    expect(page.headers['access-control-allow-origin']).to.equal(undefined);
  });
});
