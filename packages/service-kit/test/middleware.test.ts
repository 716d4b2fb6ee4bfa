import { expect } from 'chai';
import createError from 'http-errors';
import Koa, { type Middleware } from 'koa';
import { Registry } from 'prom-client';
import request from 'supertest';
import { BadRequest } from '../src/errors.js';
import { cors } from '../src/middleware/cors.js';
import { errors } from '../src/middleware/errors.js';
import { finish } from '../src/middleware/finish.js';
import type { KitState } from '../src/middleware/path.js';
import { requestRecord } from '../src/middleware/request-record.js';
import { securityHeaders } from '../src/middleware/security-headers.js';
import { wellFormed } from '../src/middleware/well-formed.js';
import type { Operation } from '../src/operations.js';
import { captureLogger } from '../src/testing/http.js';

/** What the path middleware would have said of every request. */
const kind =
  (jsonPath: boolean): Middleware<KitState> =>
  (ctx, next) => {
    ctx.state.jsonPath = jsonPath;
    return next();
  };
/** An app of `middleware` alone before `route`, the way it runs in a service. */
const alone = (middleware: Middleware<KitState>[], route: Middleware) => {
  const app = new Koa();
  for (const each of middleware) app.use(each);
  return app.use(route).callback();
};
const reached = () => {
  const seen = { count: 0 };
  const route: Middleware = (ctx) => {
    seen.count++;
    ctx.body = { ok: true };
  };
  return { seen, route };
};

describe('each middleware, alone in a Koa app', () => {
  it('request record: gives an id, counts the request and logs one line', async () => {
    const logger = captureLogger();
    const registry = new Registry();
    const { route } = reached();
    const server = alone([kind(true), requestRecord(logger, registry)], route);
    const res = await request(server).get('/anything').set('X-Request-Id', 'given-1');
    expect(res.headers['x-request-id']).to.equal('given-1');
    expect(await registry.metrics()).to.include(
      'http_request_duration_seconds_count{method="GET",route="unmatched",status="200"} 1',
    );
    expect(logger.lines.filter((line) => line.message === 'request')).to.have.length(1);
  });

  it('errors: a thrown error and an empty error status become the JSON body, or the page', async () => {
    const page = async () => '<p>page</p>';
    const thrower: Middleware = (ctx) => {
      if (ctx.path === '/bad') throw new BadRequest('Bad thing');
    };
    const json = alone([kind(true), errors(captureLogger(), () => {}, page)], thrower);
    expect((await request(json).get('/bad')).body).to.deep.equal({
      error: 'Bad thing',
      status: 400,
    });
    const missing = await request(json).get('/none').expect(404);
    expect(missing.body).to.deep.equal({ error: 'Nothing here: GET /none', status: 404 });
    const pages = alone([kind(false), errors(captureLogger(), () => {}, page)], thrower);
    const html = await request(pages).get('/bad').expect(400);
    expect(html.text).to.equal('<p>page</p>');
    expect(html.headers['cache-control']).to.equal('no-store');
  });

  it("errors: a service's own error answered as the HTTP error it maps to, logged as thrown", async () => {
    class StoreDown extends Error {
      code = 'DOWN';
    }
    const logger = captureLogger();
    const toHttpError = (error: unknown) =>
      error instanceof StoreDown
        ? createError(503, 'Try again later', { expose: true, headers: { 'Retry-After': '5' } })
        : error;
    const thrower: Middleware = (ctx) => {
      if (ctx.path === '/down') throw new StoreDown('the disk is full');
      throw new BadRequest('Bad thing');
    };
    const server = alone([kind(true), errors(logger, () => {}, undefined, toHttpError)], thrower);
    const down = await request(server).get('/down').expect(503).expect('Retry-After', '5');
    expect(down.body).to.deep.equal({ error: 'Try again later', status: 503 });
    expect(logger.lines).to.have.length(1);
    expect(logger.lines[0]).to.include({ level: 'error', message: 'Try again later' });
    expect(logger.lines[0]?.err).to.include({ code: 'DOWN', message: 'the disk is full' });
    const other = await request(server).get('/other').expect(400);
    expect(other.body).to.deep.equal({ error: 'Bad thing', status: 400 });
  });

  it("the answer's finish: serializes, tags, answers 304 and compresses", async () => {
    const server = alone([finish], (ctx) => {
      ctx.body = { text: 'a'.repeat(4000) };
    });
    const first = await request(server).get('/').set('Accept-Encoding', 'gzip');
    expect(first.headers['content-encoding']).to.equal('gzip');
    expect(first.headers.vary).to.equal('Accept-Encoding');
    expect(first.body).to.deep.equal({ text: 'a'.repeat(4000) });
    const etag = first.headers.etag as string;
    expect(etag).to.match(/^W\//);
    await request(server).get('/').set('If-None-Match', etag).expect(304);
  });

  it('cors: answers a preflight itself, and on JSON paths only', async () => {
    const operations = [{ method: 'get', path: '/api/x' }] as Operation[];
    const { seen, route } = reached();
    const api = alone([kind(true), cors(operations, ['*'])], route);
    const preflight = await request(api)
      .options('/api/x')
      .set('Origin', 'https://a.example')
      .set('Access-Control-Request-Method', 'GET')
      .expect(204);
    expect(preflight.headers['access-control-allow-methods']).to.equal('GET,HEAD');
    expect(seen.count).to.equal(0);
    const read = await request(api).get('/api/x').set('Origin', 'https://a.example');
    expect(read.headers['access-control-allow-origin']).to.equal('*');
    const page = alone([kind(false), cors(operations, ['*'])], route);
    const other = await request(page).get('/').set('Origin', 'https://a.example');
    expect(other.headers['access-control-allow-origin']).to.equal(undefined);
  });

  it('well-formed: throws a 400 before the route for a broken query, and lets the rest by', async () => {
    const { seen, route } = reached();
    const server = alone([wellFormed], route);
    await request(server).get('/?q=%zz').expect(400);
    expect(seen.count).to.equal(0);
    await request(server).get('/?q=%41').expect(200);
    expect(seen.count).to.equal(1);
  });

  it("security headers: a JSON answer's fixed five, helmet's on a page", async () => {
    const { route } = reached();
    const { middleware } = securityHeaders();
    const json = await request(alone([kind(true), middleware], route)).get('/');
    expect(json.headers['content-security-policy']).to.equal(
      "default-src 'none';frame-ancestors 'none'",
    );
    const page = await request(alone([kind(false), middleware], route)).get('/');
    expect(page.headers['content-security-policy']).to.match(/^default-src 'self'/);
    expect(page.headers['strict-transport-security']).to.equal(undefined);
  });
});
