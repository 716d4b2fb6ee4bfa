import fs from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import request from 'supertest';
import { markDraining } from '../src/health.js';
import { captureLogger } from '../src/testing/http.js';
import { fixtureService } from './fixture.js';

/**
 * GET `path` answers 200 with a weak ETag; the same GET with a matching If-None-Match gets 304
 * without a body, with another one 200. Returns the ETag.
 */
async function expectRevalidates(
  server: Parameters<typeof request>[0],
  path: string,
): Promise<string> {
  const first = await request(server).get(path).expect(200);
  const etag = first.headers.etag ?? '';
  if (!/^W\/"[\w+/=-]+"$/.test(etag)) throw new Error(`${path}: no weak ETag but "${etag}"`);
  const again = await request(server).get(path).set('If-None-Match', etag).expect(304);
  if ((again.text ?? '') !== '') throw new Error(`${path}: a 304 with a body`);
  await request(server).get(path).set('If-None-Match', '"other"').expect(200);
  return etag;
}

describe('conditional GET', () => {
  const { app, request } = fixtureService();
  const server = app.callback();

  for (const path of ['/api/items', '/', '/openapi.json', '/docs']) {
    it(`gives ${path} a weak ETag and answers a matching If-None-Match with 304`, async () => {
      await expectRevalidates(server, path);
    });
  }

  it('gives every encoding of a body the same weak ETag', async () => {
    const tags = [];
    for (const encoding of ['identity', 'gzip', 'br']) {
      const res = await request(server).get('/api/big/2').set('Accept-Encoding', encoding);
      tags.push(res.headers.etag);
    }
    expect(new Set(tags).size).to.equal(1);
    const notModified = await request(server)
      .get('/api/big/2')
      .set('Accept-Encoding', 'gzip')
      .set('If-None-Match', tags[0] ?? '')
      .expect(304);
    expect(notModified.headers['content-encoding']).to.equal(undefined);
  });

  it('gives no ETag to an answer that must not be stored', async () => {
    const res = await request(server).get('/healthz').expect(200);
    expect(res.headers.etag).to.equal(undefined);
    await request(server).get('/healthz').set('If-None-Match', 'W/"anything"').expect(200);
    await request(server).get('/healthz').set('If-None-Match', '*').expect(200);
  });
});

describe('compression', () => {
  const { app, request } = fixtureService();
  const server = app.callback();

  it('compresses large answers with the best encoding the client takes', async () => {
    const br = await request(server).get('/api/big/2').set('Accept-Encoding', 'gzip, br');
    expect(br.headers['content-encoding']).to.equal('br');
    const gzip = await request(server).get('/api/big/2').set('Accept-Encoding', 'gzip');
    expect(gzip.headers['content-encoding']).to.equal('gzip');
    expect(gzip.headers.vary).to.match(/Accept-Encoding/);
  });

  it('sends bytes that decode to the very body sent without encoding', async () => {
    const plain = await request(server).get('/api/big/3').set('Accept-Encoding', 'identity');
    const packed = await request(server).get('/api/big/3').set('Accept-Encoding', 'gzip');
    expect(packed.headers['content-encoding']).to.equal('gzip');
    expect(packed.body).to.deep.equal(plain.body);
    expect(Number(plain.headers['content-length'])).to.be.above(3 * 1024);
  });

  it('compresses pages and assets too', async () => {
    const page = await request(server).get('/').set('Accept-Encoding', 'identity');
    const href = /href="(\/assets\/styles\.css\?v=[\w-]+)"/.exec(page.text)?.[1] ?? '';
    const css = await request(server).get(href).set('Accept-Encoding', 'br');
    expect(css.headers['content-encoding']).to.equal('br');
    const docs = await request(server).get('/docs').set('Accept-Encoding', 'gzip');
    expect(docs.headers['content-encoding']).to.equal('gzip');
  });

  it('leaves small answers, HEAD, 204 and clients that take nothing uncompressed', async () => {
    const small = await request(server).get('/api/items').set('Accept-Encoding', 'gzip, br');
    expect(small.headers['content-encoding']).to.equal(undefined);
    expect(small.headers.vary).to.match(/Accept-Encoding/);
    const plain = await request(server).get('/api/big/2').set('Accept-Encoding', 'identity');
    expect(plain.headers['content-encoding']).to.equal(undefined);
    const head = await request(server).head('/api/big/2').set('Accept-Encoding', 'gzip');
    expect(head.status).to.equal(200);
    expect(head.headers['content-encoding']).to.equal(undefined);
    const removed = await request(server).delete('/api/items/last').set('Accept-Encoding', 'gzip');
    expect(removed.status).to.equal(204);
    expect(removed.headers['content-encoding']).to.equal(undefined);
  });

  it('answers without encoding a client that refuses identity and every encoding we have', async () => {
    for (const refusal of ['identity;q=0', '*;q=0', 'zstd, identity;q=0', 'identity;q=0.0']) {
      const res = await request(server)
        .get('/api/big/2')
        .set('Accept-Encoding', refusal)
        .expect(200);
      expect(res.headers['content-encoding'], refusal).to.equal(undefined);
      expect(res.body.filler).to.have.length(2048);
    }
    const weighed = await request(server)
      .get('/api/big/2')
      .set('Accept-Encoding', 'gzip;q=0.5, br;q=0.1, identity;q=0');
    expect(weighed.headers['content-encoding']).to.equal('gzip');
  });
});

describe('request id', () => {
  const { app, request } = fixtureService();
  const server = app.callback();

  it('echoes a sane X-Request-Id and replaces anything else', async () => {
    const kept = await request(server).get('/api/items').set('X-Request-Id', 'abc-123.4:5');
    expect(kept.headers['x-request-id']).to.equal('abc-123.4:5');
    for (const bad of ['bad id<>', 'x'.repeat(129)]) {
      const replaced = await request(server).get('/api/items').set('X-Request-Id', bad);
      expect(replaced.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    }
    const made = await request(server).get('/nope');
    const other = await request(server).get('/nope');
    expect(made.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    expect(other.headers['x-request-id']).to.not.equal(made.headers['x-request-id']);
  });
});

describe('request log', () => {
  it('writes one line per request, with its id, when logRequests is on', async () => {
    const logger = captureLogger('fixture');
    const { app, request } = fixtureService({ logger, logRequests: true });
    await request(app.callback()).get('/api/items').set('X-Request-Id', 'trace-me').expect(200);
    const lines = logger.lines.filter((line) => line.message === 'request');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({
      service: 'fixture',
      level: 'info',
      method: 'GET',
      path: '/api/items',
      status: 200,
      requestId: 'trace-me',
    });
    expect(lines[0]?.ms).to.be.a('number');
  });

  it('logs the probes that succeed at debug level (not printed by default), and those that fail', async () => {
    const logger = captureLogger('fixture');
    logger.level = 'debug';
    const { app, request } = fixtureService({ logger, logRequests: true });
    await request(app.callback()).get('/livez').expect(200);
    await request(app.callback()).get('/readyz').expect(200);
    await request(app.callback()).get('/healthz').expect(200);
    markDraining(app);
    await request(app.callback()).get('/readyz').expect(503);
    const levels = logger.lines
      .filter((line) => line.message === 'request')
      .map((line) => `${line.path} ${line.status} ${line.level}`);
    expect(levels).to.deep.equal([
      '/livez 200 debug',
      '/readyz 200 debug',
      '/healthz 200 info',
      '/readyz 503 info',
    ]);
  });

  it('writes none when logRequests is off', async () => {
    const logger = captureLogger('fixture');
    const { app, request } = fixtureService({ logger });
    await request(app.callback()).get('/api/items').expect(200);
    expect(logger.lines).to.deep.equal([]);
  });
});

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
});

describe('OpenAPI document and /docs', () => {
  const { app, api, request } = fixtureService();
  const server = app.callback();

  it('is a valid OpenAPI 3.1 document of every operation, its own included', async () => {
    const res = await request(server)
      .get('/openapi.json')
      .expect(200)
      .expect('Content-Type', /json/);
    const result = await new Validator().validate(res.body);
    expect(result.errors, JSON.stringify(result.errors)).to.equal(undefined);
    expect(Object.keys(res.body.paths)).to.have.members([
      '/healthz',
      '/livez',
      '/readyz',
      '/api/items',
      '/api/items/last',
      '/api/random',
      '/api/big/{size}',
      '/api/items/half-done',
      '/api/boom',
      '/openapi.json',
    ]);
    expect(res.body).to.deep.equal(JSON.parse(JSON.stringify(api.document)));
  });

  it('renders every operation in the service layout at /docs', async () => {
    const res = await request(server).get('/docs').expect(200).expect('Content-Type', /html/);
    expect(res.text).to.include('· Fixture</title>');
    const paths = api.document.paths as Record<string, Record<string, { operationId: string }>>;
    for (const operations of Object.values(paths)) {
      for (const { operationId } of Object.values(operations)) {
        expect(res.text).to.include(`<section class="operation" id="${operationId}"`);
      }
    }
    expect(res.text).to.not.match(/undefined|NaN/);
  });
});

describe('assets', () => {
  const { app, request } = fixtureService();
  const server = app.callback();

  it('serves an asset for good under its versioned URL, to be revalidated otherwise', async () => {
    const page = await request(server).get('/').expect(200);
    const href = /href="(\/assets\/styles\.css\?v=[\w-]+)"/.exec(page.text)?.[1];
    expect(href).to.be.a('string');
    const current = await request(server).get(href!).expect(200).expect('Content-Type', /css/);
    expect(current.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    const stale = await request(server).get('/assets/styles.css?v=old').expect(200);
    expect(stale.headers['cache-control']).to.equal('no-cache');
    await request(server).get('/assets/missing.css').expect(404);
    await request(server).get('/assets/../fixture.ts').expect(404);
  });
});

describe('pages', () => {
  it('look each template up on disk once, not at every render', async () => {
    const { app, request } = fixtureService();
    const server = app.callback();
    await request(server).get('/').expect(200);
    const looked: string[] = [];
    const stat = fs.stat;
    fs.stat = ((path: string, ...rest: unknown[]) => {
      looked.push(String(path));
      return (stat as (...args: unknown[]) => unknown)(path, ...rest);
    }) as typeof fs.stat;
    try {
      for (let i = 0; i < 3; i++) await request(server).get('/').expect(200);
    } finally {
      fs.stat = stat;
    }
    expect(looked.filter((path) => path.endsWith('.pug'))).to.deep.equal([]);
  });

  it('render with the service helpers and the security headers', async () => {
    const { app, request } = fixtureService();
    const res = await request(app.callback()).get('/').expect(200);
    expect(res.text).to.include('<p>HELLO</p>');
    expect(res.headers['content-security-policy']).to.equal(
      "default-src 'self';img-src 'self' data:;object-src 'none';base-uri 'none';form-action 'self';frame-ancestors 'none'",
    );
    expect(res.headers['referrer-policy']).to.equal('strict-origin-when-cross-origin');
  });
});
