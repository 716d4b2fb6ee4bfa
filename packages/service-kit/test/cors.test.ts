import { expect } from 'chai';
import { fixtureService } from './fixture.js';

describe('CORS', () => {
  it('allows the configured origins on JSON paths only, and preflights', async () => {
    const { app, request } = fixtureService();
    const server = app.callback();
    const allowed = await request(server)
      .get('/api/items')
      .set('Origin', 'https://allowed.example');
    expect(allowed.headers['access-control-allow-origin']).to.equal('https://allowed.example');
    expect(allowed.headers['access-control-expose-headers']).to.include('X-Request-Id');
    expect(allowed.headers.vary).to.match(/Origin/);
    const other = await request(server).get('/api/items').set('Origin', 'https://evil.example');
    expect(other.headers['access-control-allow-origin']).to.equal(undefined);
    const error = await request(server)
      .get('/api/big/0')
      .set('Origin', 'https://allowed.example')
      .expect(404);
    expect(error.headers['access-control-allow-origin']).to.equal('https://allowed.example');
    const page = await request(server).get('/').set('Origin', 'https://allowed.example');
    expect(page.headers['access-control-allow-origin']).to.equal(undefined);
    const preflight = await request(server)
      .options('/api/items')
      .set('Origin', 'https://allowed.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(preflight.status).to.equal(204);
    expect(preflight.headers['access-control-max-age']).to.equal('600');
    // The methods of the API's own operations, HEAD with GET.
    expect(preflight.headers['access-control-allow-methods']).to.equal('GET,POST,DELETE,HEAD');
  });

  it('is off with no origins', async () => {
    const { app, request } = fixtureService({ cors: { origins: [] } });
    const res = await request(app.callback()).get('/api/items').set('Origin', 'https://a.example');
    expect(res.headers['access-control-allow-origin']).to.equal(undefined);
  });

  it('answers any origin with * when configured so', async () => {
    const { app, request } = fixtureService({ cors: { origins: ['*'] } });
    const res = await request(app.callback()).get('/api/items').set('Origin', 'https://a.example');
    expect(res.headers['access-control-allow-origin']).to.equal('*');
  });

  it('says no Vary: Origin beside Access-Control-Allow-Origin: *, errors included', async () => {
    const { app, request } = fixtureService({ cors: { origins: ['*'] } });
    const server = app.callback();
    const res = await request(server)
      .get('/api/items')
      .set('Origin', 'https://a.example')
      .expect(200);
    expect(res.headers['access-control-allow-origin']).to.equal('*');
    expect(res.headers.vary ?? '').not.to.match(/origin/i);
    const error = await request(server)
      .get('/api/big/0')
      .set('Origin', 'https://a.example')
      .expect(404);
    expect(error.headers['access-control-allow-origin']).to.equal('*');
    expect(error.headers.vary ?? '').not.to.match(/origin/i);
  });
});
