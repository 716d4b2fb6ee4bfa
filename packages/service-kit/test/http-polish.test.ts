import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { expectRevalidates } from '../src/testing/http.js';
import { fixtureService } from './fixture.js';

describe('conditional GET', () => {
  const { app, request } = fixtureService();
  const server = app.callback();

  for (const path of ['/api/items', '/', '/openapi.json', '/docs']) {
    it(`gives ${path} a weak ETag and answers a matching If-None-Match with 304`, async () => {
      await expectRevalidates(server, path);
    });
  }

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

  it('leaves small answers and clients that take nothing uncompressed', async () => {
    const small = await request(server).get('/api/items').set('Accept-Encoding', 'gzip, br');
    expect(small.headers['content-encoding']).to.equal(undefined);
    const plain = await request(server).get('/api/big/2').set('Accept-Encoding', 'identity');
    expect(plain.headers['content-encoding']).to.equal(undefined);
  });

  it('answers without encoding a client that refuses identity and every encoding we have', async () => {
    for (const cacheMaxBytes of [0, 1024 * 1024]) {
      const { app: plain } = fixtureService({ cacheMaxBytes });
      for (const refusal of ['identity;q=0', '*;q=0', 'zstd, identity;q=0']) {
        const res = await request(plain.callback())
          .get('/api/big/2')
          .set('Accept-Encoding', refusal)
          .expect(200);
        expect(res.headers['content-encoding'], refusal).to.equal(undefined);
        expect(res.body.filler).to.have.length(2048);
      }
    }
  });
});

describe('request id', () => {
  const { app, request } = fixtureService();
  const server = app.callback();

  it('echoes a sane X-Request-Id and replaces anything else', async () => {
    const kept = await request(server).get('/api/items').set('X-Request-Id', 'abc-123.4:5');
    expect(kept.headers['x-request-id']).to.equal('abc-123.4:5');
    const replaced = await request(server).get('/api/items').set('X-Request-Id', 'bad id<>');
    expect(replaced.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
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
    const page = await request(server).get('/').set('Origin', 'https://allowed.example');
    expect(page.headers['access-control-allow-origin']).to.equal(undefined);
    const preflight = await request(server)
      .options('/api/items')
      .set('Origin', 'https://allowed.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(preflight.status).to.equal(204);
    expect(preflight.headers['access-control-max-age']).to.equal('600');
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
      '/api/items',
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
    for (const path of Object.keys(api.document.paths as object)) {
      expect(res.text).to.include(`<code>${path}</code>`);
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
