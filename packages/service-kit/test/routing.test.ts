import { expect } from 'chai';
import { Router } from '../src/routing.js';
import { expectErrorBody } from '../src/testing/http.js';
import { fixtureService } from './fixture.js';

describe('routing', () => {
  const { app, request } = fixtureService();
  const server = app.callback();

  it('answers a method no route has with 405 and Allow: JSON on the API, the layout on pages', async () => {
    for (const method of ['PROPFIND', 'SEARCH', 'PURGE', 'LOCK', 'LINK']) {
      const api = await request(server)[method.toLowerCase() as 'get']('/api/items');
      expectErrorBody(api as never, 405);
      expect(api.headers.allow, method).to.include('GET');
      const page = await request(server)[method.toLowerCase() as 'get']('/');
      expect(page.status, method).to.equal(405);
      expect(page.headers['content-type']).to.match(/html/);
      expect(page.text).to.include('Error page');
    }
  });

  it('answers each method a read-only route lacks with 405 and an Allow of its reads, literal or with parameters', async () => {
    for (const path of ['/api/random', '/api/big/2']) {
      for (const method of ['post', 'put', 'patch', 'delete'] as const) {
        const res = await request(server)[method](path).send({ name: 'x' });
        expectErrorBody(res, 405);
        expect(res.headers.allow, `${method} ${path}`).to.equal('HEAD, GET');
      }
    }
  });

  it('answers HEAD on every GET route, API and pages, with the headers of its GET and no body', async () => {
    for (const path of ['/api/items', '/api/big/2', '/', '/docs', '/openapi.json', '/healthz']) {
      const get = await request(server).get(path);
      const head = await request(server).head(path);
      expect(head.status, path).to.equal(get.status);
      expect(head.headers['content-type'], path).to.equal(get.headers['content-type']);
      expect(head.headers.etag, path).to.equal(get.headers.etag);
      expect(head.text, path).to.equal(undefined);
    }
  });

  it('answers a method no route has on a path that does not exist with 404', async () => {
    const res = await request(server).propfind!('/api/nothing-here');
    expectErrorBody(res as never, 404);
  });

  it('answers a plain OPTIONS with 204 and Allow, no body', async () => {
    for (const path of ['/api/items', '/']) {
      const res = await request(server).options(path);
      expect(res.status, path).to.equal(204);
      expect(res.headers.allow, path).to.include('GET');
      expect(res.headers['content-type'], path).to.equal(undefined);
      expect(res.text, path).to.equal('');
    }
  });

  it('refuses to build an app with an operation outside its JSON paths, naming it', () => {
    // The operations' router answers the JSON paths only: such an operation could never answer.
    expect(() => fixtureService({ jsonPaths: ['/v2'] })).to.throw(
      'GET /api/items is not under jsonPaths',
    );
  });

  it('matches a JSON path against the API routes only: apiRouters before the operations, never a page route', async () => {
    const hidden = new Router().get('/api/items/hidden', (ctx) => {
      ctx.body = 'a page';
    });
    const helpful = new Router().all('/api/items/none', (ctx) => {
      ctx.status = 410;
      ctx.body = { error: 'Gone', status: 410 };
    });
    const { app: withRoutes } = fixtureService({ routers: [hidden], apiRouters: [helpful] });
    expectErrorBody((await request(withRoutes.callback()).get('/api/items/hidden')) as never, 404);
    expectErrorBody((await request(withRoutes.callback()).post('/api/items/none')) as never, 410);
  });
});
