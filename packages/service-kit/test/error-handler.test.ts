import { expect } from 'chai';
import { captureLogger, expectErrorBody } from '../src/testing/http.js';
import { fixtureService } from './fixture.js';

describe('errors', () => {
  const { app, request } = fixtureService();
  const server = app.callback();

  it('answers an HttpError with its status, message and details, never cached', async () => {
    const res = await request(server)
      .post('/api/items')
      .send({ name: 42 })
      .expect(400)
      .expect('Cache-Control', 'no-store');
    expectErrorBody(res, 400);
    expect(res.body).to.deep.equal({
      error: 'Invalid item',
      status: 400,
      details: [{ field: 'name', message: 'must be a string' }],
    });
  });

  it('answers an unexpected failure with a generic 500 and logs it', async () => {
    const logger = captureLogger();
    const { app } = fixtureService({ logger });
    const res = await fixtureService()
      .request(app.callback())
      .get('/api/boom')
      .set('X-Request-Id', 'failing-1')
      .expect(500);
    expect(res.body).to.deep.equal({ error: 'Internal Server Error', status: 500 });
    expect(JSON.stringify(res.body)).to.not.include('secret');
    const logged = logger.lines.find((line) => line.message === 'unhandled error');
    expect(logged).to.include({ level: 'error', requestId: 'failing-1', path: '/api/boom' });
    expect(JSON.stringify(logged)).to.include('secret detail from the database');
  });

  it('drops the headers of the failed answer: its tag, location and paging', async () => {
    const res = await request(server).get('/api/boom').expect(500);
    for (const name of ['etag', 'location', 'link', 'x-total-count', 'x-total-count-relation']) {
      expect(res.headers, name).not.to.have.property(name);
    }
    expect(res.headers['x-request-id']).to.be.a('string');
  });

  it('gives a bodiless 404 the JSON error body on API paths', async () => {
    const res = await request(server).get('/api/nothing-here').expect(404);
    expect(res.body).to.deep.equal({ error: 'Nothing here: GET /api/nothing-here', status: 404 });
  });

  it('answers HEAD of an error with the headers of the GET, Content-Length included', async () => {
    for (const [path, status] of [
      ['/api/nothing-here', 404],
      ['/api/items/x/y', 404],
      ['/no-such-page', 404],
      ['/api/boom', 500],
    ] as const) {
      const get = await request(server).get(path).expect(status);
      const head = await request(server).head(path).expect(status);
      expect(head.headers['content-length'], path).to.equal(get.headers['content-length']);
      expect(head.headers['content-type'], path).to.equal(get.headers['content-type']);
    }
  });

  it('answers a method a path does not have with 405, Allow and the JSON body', async () => {
    const res = await request(server).delete('/api/items').expect(405);
    expectErrorBody(res, 405);
    expect(res.headers.allow).to.include('GET').and.to.include('POST');
  });

  it('answers every error with the JSON body in a service without an error view, pages included', async () => {
    const { app: noPages, request: noPagesRequest } = fixtureService({ errorView: undefined });
    const client = noPagesRequest(noPages.callback());
    const missing = await client.get('/no-such-page');
    expectErrorBody(missing, 404);
    expect(missing.body.error).to.include('/no-such-page');
    const method = await client.post('/').send({});
    expectErrorBody(method, 405);
    expect(method.headers.allow).to.equal('HEAD, GET');
  });

  it('renders the error page for a page that is not found', async () => {
    const res = await request(server)
      .get('/no-such-page')
      .expect(404)
      .expect('Content-Type', /html/);
    expect(res.text).to.include('Error page').and.to.include('There is no page at /no-such-page.');
    expect(res.headers['cache-control']).to.equal('no-store');
  });

  it('keeps the security headers on errors', async () => {
    const res = await request(server).get('/api/boom').expect(500);
    expect(res.headers['x-content-type-options']).to.equal('nosniff');
    expect(res.headers['content-security-policy']).to.include("default-src 'none'");
    expect(res.headers['x-frame-options']).to.equal('DENY');
  });

  it('answers a body that is not JSON with 415 and one over the limit with 413', async () => {
    expectErrorBody(
      await request(server).post('/api/items').set('Content-Type', 'text/plain').send('x'),
      415,
    );
    const big = await request(server)
      .post('/api/items')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(2000) }));
    expectErrorBody(big, 413);
    expect(big.headers.connection).to.equal('close');
    expectErrorBody(
      await request(server).post('/api/items').set('Content-Type', 'application/json').send('{'),
      400,
    );
  });
});
