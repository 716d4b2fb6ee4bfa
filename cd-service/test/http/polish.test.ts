import { get, type IncomingHttpHeaders, type Server } from 'node:http';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { apiDocument, createApp } from '../../src/app.js';
import { listParamsSchema } from '../../src/cd/query.js';
import { type Cd, maxYear } from '../../src/cd/schema.js';
import { cdRecordSchema, cdSchemas } from '../../src/cd/validate.js';
import { readConfig } from '../../src/config.js';
import { errorBodySchema } from '../../src/http/errors.js';
import type { CdStore } from '../../src/store/store.js';
import { Conformance } from '../conformance.js';
import {
  captureLogger,
  conformance,
  expectErrorBody,
  listen,
  makeCdInput,
  request,
} from '../helpers.js';
import { describeEachStore, type StoreHandle } from '../stores.js';

type Op = {
  parameters?: { name: string; schema: unknown }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
};
type Paths = Record<string, Record<string, Op>>;

describe('the OpenAPI document', () => {
  const document = apiDocument() as { paths: Paths; components: { schemas: { Error: unknown } } };
  const op = (path: string, method: string) => document.paths[path]?.[method] as Op;
  const json = (holder: { content?: Record<string, { schema: unknown }> } | undefined) =>
    holder?.content?.['application/json']?.schema;

  it('is built from the very schemas the validators are compiled from', () => {
    const { create, update } = cdSchemas(maxYear());
    expect(json(op('/cds', 'post').requestBody)).to.equal(create);
    expect(json(op('/cds/{id}', 'put').requestBody)).to.equal(update);
    for (const parameter of op('/cds', 'get').parameters ?? []) {
      expect(parameter.schema, parameter.name).to.equal(
        listParamsSchema.properties[parameter.name],
      );
    }
    expect(op('/cds', 'get').parameters?.map((p) => p.name)).to.have.members(
      Object.keys(listParamsSchema.properties),
    );
    expect(json(op('/cds/{id}', 'get').responses['200'])).to.equal(cdRecordSchema);
    expect(json(op('/cds', 'post').responses['201'])).to.equal(cdRecordSchema);
    expect(document.components.schemas.Error).to.equal(errorBodySchema);
  });

  it('bounds the release year of a write by the current latest year', () => {
    const schema = json(op('/cds', 'post').requestBody) as {
      properties: { releaseYear: { maximum: number } };
    };
    expect(schema.properties.releaseYear.maximum).to.equal(new Date().getUTCFullYear() + 1);
    const later = apiDocument(() => new Date('2040-05-01T00:00:00Z')) as { paths: Paths };
    const laterSchema = later.paths['/cds']?.post?.requestBody?.content['application/json']
      ?.schema as { properties: { releaseYear: { maximum: number } } };
    expect(laterSchema.properties.releaseYear.maximum).to.equal(2041);
  });

  it('lets the response checker catch what it does not describe', () => {
    const checker = new Conformance(conformance.document, () => true);
    const headers = { 'content-type': 'application/json' };
    checker.check('get', '/cds', { status: 200, headers, body: [{ title: 'x', extra: 1 }] });
    checker.check('get', '/cds', { status: 418, headers, body: {} });
    checker.check('get', '/cds/x', { status: 400, headers, body: { error: 'x' } });
    checker.check('get', '/elsewhere', { status: 200, headers, body: {} });
    checker.check('get', '/elsewhere', { status: 404, headers, body: { error: 'x', status: 404 } });
    expect(checker.violations).to.have.length(4);
  });
});

describeEachStore('HTTP polish', (factory) => {
  let handle: StoreHandle;
  let store: CdStore;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;

  beforeEach(async () => {
    handle = await factory.open();
    store = handle.store;
    app = createApp({ store }).callback();
  });
  afterEach(() => handle.dispose());

  const create = async (overrides = {}): Promise<Cd> =>
    (await request(app).post('/cds').send(makeCdInput(overrides)).expect(201)).body;
  const fill = async (count: number) => {
    for (let i = 0; i < count; i++) await create({ title: `Filler album number ${i}` });
  };

  describe('GET /openapi.json', () => {
    it('is a valid OpenAPI 3.1 document', async () => {
      const res = await request(app)
        .get('/openapi.json')
        .expect(200)
        .expect('Content-Type', /json/);
      expect(res.body.openapi).to.equal('3.1.0');
      const result = await new Validator().validate(res.body);
      expect(result.errors, JSON.stringify(result.errors)).to.equal(undefined);
      expect(result.valid).to.equal(true);
    });

    it('documents every JSON route the service has', async () => {
      const { body } = await request(app).get('/openapi.json');
      const routes = Object.entries(body.paths as Paths).flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
      );
      expect(routes).to.have.members([
        'GET /healthz',
        'GET /cds',
        'POST /cds',
        'GET /cds/{id}',
        'PUT /cds/{id}',
        'DELETE /cds/{id}',
        'GET /openapi.json',
      ]);
      expect(body.paths['/cds'].post.security).to.deep.equal([{ bearerAuth: [] }]);
      for (const status of ['400', '401', '413', '415', '500'])
        expect(body.paths['/cds'].post.responses, status).to.have.property(status);
    });

    it('answers every documented GET route as documented, and HEAD alike without a body', async () => {
      const cd = await create();
      for (const template of Object.keys(conformance.document.paths)) {
        const url = template.replace('{id}', cd.id);
        const full = await request(app).get(url).set('Accept-Encoding', 'identity').expect(200);
        const head = await request(app).head(url).set('Accept-Encoding', 'identity').expect(200);
        expect(head.text, url).to.equal(undefined);
        expect(head.headers['content-type'], url).to.match(/json/);
        expect(head.headers['content-length'], url).to.equal(full.headers['content-length']);
        expect(head.headers.etag, url).to.equal(full.headers.etag);
      }
      await request(app).head('/docs').expect(200).expect('Content-Type', /html/);
      const bad = await request(app)
        .head(`/cds/${cd.id.replace(/.$/, 'x')}`)
        .expect(400);
      expect(bad.headers['content-type']).to.match(/json/);
    });
  });

  describe('/docs', () => {
    it('renders every operation of the document, with nothing from elsewhere', async () => {
      const res = await request(app).get('/docs').expect(200).expect('Content-Type', /html/);
      for (const [path, methods] of Object.entries(conformance.document.paths)) {
        expect(res.text).to.include(`<code>${path}</code>`);
        for (const op of Object.values(
          methods as unknown as Record<string, { operationId: string }>,
        ))
          expect(res.text).to.include(`id="${op.operationId}"`);
      }
      expect(res.text).to.not.match(/undefined|NaN/);
      expect(res.text).to.not.match(/<(script|link|img)[^>]+https?:/);
      expect(res.text).to.match(/href="\/assets\/styles\.css\?v=[\w-]+"/);
    });

    it('is allowed by the content security policy to load its stylesheet, and nothing else', async () => {
      const res = await request(app).get('/docs');
      const csp = res.headers['content-security-policy'] ?? '';
      expect(csp).to.include("default-src 'none'");
      expect(csp).to.include("style-src 'self'");
      expect(csp).to.not.include('script-src');
    });

    it('serves its assets with a content hash and caches them for good', async () => {
      const page = await request(app).get('/docs');
      const href = /href="(\/assets\/styles\.css\?v=[\w-]+)"/.exec(page.text)?.[1] ?? '';
      const css = await request(app).get(href).expect(200).expect('Content-Type', /css/);
      expect(css.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
      const stale = await request(app).get('/assets/styles.css?v=old').expect(200);
      expect(stale.headers['cache-control']).to.equal('no-cache');
      expectErrorBody(await request(app).get('/assets/nothing.css'), 404);
    });
  });

  describe('ETag', () => {
    it('GET /cds: 304 for a matching If-None-Match, 200 for another, a new ETag once it changes', async () => {
      await create();
      const first = await request(app).get('/cds').expect(200);
      const etag = first.headers.etag ?? '';
      expect(etag).to.match(/^(W\/)?"[\w-]+"$/);
      const again = await request(app).get('/cds').set('If-None-Match', etag).expect(304);
      expect(again.text ?? '').to.equal('');
      expect(again.headers['x-total-count']).to.equal('1');
      await request(app).head('/cds').set('If-None-Match', etag).expect(304);
      await request(app).get('/cds').set('If-None-Match', '"other"').expect(200);
      // Another query is another representation.
      const titles = await request(app).get('/cds?fields=title').expect(200);
      expect(titles.headers.etag).to.not.equal(etag);

      await create();
      const changed = await request(app).get('/cds').set('If-None-Match', etag).expect(200);
      expect(changed.headers.etag).to.not.equal(etag);
      expect(changed.body).to.have.length(2);
    });

    it('GET /cds/:id: 304 while unchanged, a new ETag once updated', async () => {
      const cd = await create();
      const first = await request(app).get(`/cds/${cd.id}`).expect(200);
      const etag = first.headers.etag ?? '';
      expect(etag).to.match(/^(W\/)?"[\w-]+"$/);
      await request(app).get(`/cds/${cd.id}`).set('If-None-Match', etag).expect(304);
      await request(app).put(`/cds/${cd.id}`).send({ title: 'Changed' }).expect(200);
      const changed = await request(app).get(`/cds/${cd.id}`).set('If-None-Match', etag);
      expect(changed.status).to.equal(200);
      expect(changed.body.title).to.equal('Changed');
      expect(changed.headers.etag).to.match(/^(W\/)?"[\w-]+"$/);
      expect(changed.headers.etag).to.not.equal(etag);
      await request(app)
        .get(`/cds/${cd.id}`)
        .set('If-None-Match', changed.headers.etag!)
        .expect(304);
    });

    it('/openapi.json and /docs: 304 for a matching If-None-Match', async () => {
      for (const path of ['/openapi.json', '/docs']) {
        const etag = (await request(app).get(path).expect(200)).headers.etag ?? '';
        expect(etag, path).to.match(/^(W\/)?"[\w-]+"$/);
        await request(app).get(path).set('If-None-Match', etag).expect(304);
      }
    });

    it('gives errors and writes no validator', async () => {
      const missing = await request(app).get('/cds/00000000-0000-4000-8000-000000000000');
      expectErrorBody(missing, 404);
      expect(missing.headers.etag).to.equal(undefined);
      const created = await request(app).post('/cds').send(makeCdInput()).expect(201);
      expect(created.headers.etag).to.equal(undefined);
    });
  });

  describe('Cache-Control', () => {
    it('fits each route', async () => {
      const cd = await create();
      const cases: [string, Promise<{ headers: Record<string, string> }>, RegExp][] = [
        ['GET /cds', request(app).get('/cds'), /^no-cache$/],
        ['GET /cds/:id', request(app).get(`/cds/${cd.id}`), /^no-cache$/],
        ['POST /cds', request(app).post('/cds').send(makeCdInput()), /^no-store$/],
        ['PUT /cds/:id', request(app).put(`/cds/${cd.id}`).send({ genre: 'x' }), /^no-store$/],
        ['GET /healthz', request(app).get('/healthz'), /^no-store$/],
        ['GET /openapi.json', request(app).get('/openapi.json'), /^public, max-age=\d+$/],
        ['GET /docs', request(app).get('/docs'), /^public, max-age=\d+$/],
        ['GET /nope', request(app).get('/nope'), /^no-store$/],
        ['GET /cds?limit=0', request(app).get('/cds?limit=0'), /^no-store$/],
      ];
      for (const [label, response, expected] of cases) {
        expect((await response).headers['cache-control'], label).to.match(expected);
      }
      const deleted = await request(app).delete(`/cds/${cd.id}`).expect(204);
      expect(deleted.headers['cache-control']).to.equal('no-store');
    });
  });

  describe('compression', () => {
    let server: Server;
    let base: string;
    beforeEach(async () => {
      ({ server, url: base } = await listen({ store }));
    });
    afterEach(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    /** The raw bytes of a response, not decoded. */
    const rawGet = (path: string, encoding: string, method = 'GET') =>
      new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>(
        (resolve, reject) => {
          get(`${base}${path}`, { method, headers: { 'Accept-Encoding': encoding } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers,
                body: Buffer.concat(chunks),
              }),
            );
          }).on('error', reject);
        },
      );

    for (const [encoding, decode] of [
      ['gzip', promisify(gunzip)],
      ['br', promisify(brotliDecompress)],
    ] as const) {
      it(`answers GET /cds, /openapi.json and /docs in ${encoding}, decoding to the same body`, async () => {
        await fill(20);
        for (const path of ['/cds', '/openapi.json', '/docs']) {
          const plain = await rawGet(path, 'identity');
          const packed = await rawGet(path, encoding);
          expect(plain.headers['content-encoding'], path).to.equal(undefined);
          expect(packed.headers['content-encoding'], path).to.equal(encoding);
          expect(packed.headers.vary, path).to.match(/Accept-Encoding/i);
          const decoded = (await decode(packed.body)).toString();
          expect(decoded, path).to.equal(plain.body.toString());
          if (path !== '/docs')
            expect(JSON.parse(decoded)).to.deep.equal(JSON.parse(plain.body.toString()));
          expect(packed.body.length, path).to.be.below(plain.body.length);
        }
      });
    }

    it('prefers brotli when both are accepted, and compresses the stylesheet', async () => {
      await fill(20);
      expect((await rawGet('/cds', 'gzip, br')).headers['content-encoding']).to.equal('br');
      const page = await rawGet('/docs', 'identity');
      const href = /href="(\/assets\/styles\.css\?v=[\w-]+)"/.exec(page.body.toString())?.[1];
      const css = await rawGet(href ?? '', 'gzip');
      expect(css.headers['content-encoding']).to.equal('gzip');
    });

    it('leaves small responses, HEAD, 204 and 304 alone', async () => {
      const cd = await create();
      const small = await rawGet(`/cds/${cd.id}`, 'gzip, br');
      expect(small.headers['content-encoding']).to.equal(undefined);
      expect(JSON.parse(small.body.toString())).to.deep.equal(cd);
      expect((await rawGet('/healthz', 'gzip')).headers['content-encoding']).to.equal(undefined);
      await fill(20);
      const head = await rawGet('/cds', 'gzip', 'HEAD');
      expect(head.status).to.equal(200);
      expect(head.headers['content-encoding']).to.equal(undefined);
      expect(head.body.length).to.equal(0);
      const notModified = await new Promise<{ status: number; headers: IncomingHttpHeaders }>(
        (resolve, reject) => {
          rawGet('/cds', 'gzip')
            .then(({ headers }) =>
              get(
                `${base}/cds`,
                { headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': headers.etag ?? '' } },
                (res) => {
                  res.resume();
                  res.on('end', () =>
                    resolve({ status: res.statusCode ?? 0, headers: res.headers }),
                  );
                },
              ).on('error', reject),
            )
            .catch(reject);
        },
      );
      expect(notModified.status).to.equal(304);
      expect(notModified.headers['content-encoding']).to.equal(undefined);
      const res = await fetch(`${base}/cds/${cd.id}`, {
        method: 'DELETE',
        headers: { 'Accept-Encoding': 'gzip' },
      });
      expect(res.status).to.equal(204);
      expect(res.headers.get('content-encoding')).to.equal(null);
    });
  });

  describe('CORS', () => {
    const preflight = (target: typeof app, path: string, method: string) =>
      request(target)
        .options(path)
        .set('Origin', 'https://good.example')
        .set('Access-Control-Request-Method', method)
        .set('Access-Control-Request-Headers', 'authorization, content-type');

    it('is off by default: no CORS header, not even for a preflight', async () => {
      const cd = await create();
      const read = await request(app).get('/cds').set('Origin', 'https://good.example');
      expect(read.headers['access-control-allow-origin']).to.equal(undefined);
      const pre = await preflight(app, `/cds/${cd.id}`, 'PUT');
      expect(pre.headers['access-control-allow-origin']).to.equal(undefined);
      expect(pre.headers['access-control-allow-methods']).to.equal(undefined);
    });

    it('reads CORS_ORIGINS: none by default, else a list or *', () => {
      expect(readConfig({}).corsOrigins).to.deep.equal([]);
      expect(
        readConfig({ CORS_ORIGINS: 'https://a.example, https://b.example' }).corsOrigins,
      ).to.deep.equal(['https://a.example', 'https://b.example']);
      expect(readConfig({ CORS_ORIGINS: '*' }).corsOrigins).to.deep.equal(['*']);
    });

    it('answers a preflight for a write with a token, for a configured origin', async () => {
      const open = createApp({ store, corsOrigins: ['https://good.example'] }).callback();
      const cd = await create();
      for (const [path, method] of [
        [`/cds/${cd.id}`, 'PUT'],
        ['/cds', 'POST'],
        [`/cds/${cd.id}`, 'DELETE'],
      ] as const) {
        const res = await preflight(open, path, method).expect(204);
        expect(res.headers['access-control-allow-origin']).to.equal('https://good.example');
        expect(res.headers['access-control-allow-methods']).to.include(method);
        expect(res.headers['access-control-allow-headers']).to.include('Authorization');
        expect(res.headers['access-control-allow-headers']).to.include('Content-Type');
        expect(res.headers['access-control-max-age']).to.equal('600');
      }
      const bad = await request(open)
        .options('/cds')
        .set('Origin', 'https://evil.example')
        .set('Access-Control-Request-Method', 'POST');
      expect(bad.headers['access-control-allow-origin']).to.equal(undefined);
    });

    it('marks API responses, errors included, readable by a configured origin only', async () => {
      const open = createApp({ store, corsOrigins: ['https://good.example'] }).callback();
      const good = await request(open).get('/cds').set('Origin', 'https://good.example');
      expect(good.headers['access-control-allow-origin']).to.equal('https://good.example');
      expect(good.headers['access-control-expose-headers']).to.include('X-Total-Count');
      expect(good.headers.vary).to.match(/Origin/);
      const error = await request(open).get('/cds/nope').set('Origin', 'https://good.example');
      expectErrorBody(error, 400);
      expect(error.headers['access-control-allow-origin']).to.equal('https://good.example');
      const bad = await request(open).get('/cds').set('Origin', 'https://evil.example');
      expect(bad.headers['access-control-allow-origin']).to.equal(undefined);
      const page = await request(open).get('/docs').set('Origin', 'https://good.example');
      expect(page.headers['access-control-allow-origin']).to.equal(undefined);
    });

    it('allows any origin with *', async () => {
      const any = createApp({ store, corsOrigins: ['*'] }).callback();
      const res = await request(any).get('/healthz').set('Origin', 'https://x.example');
      expect(res.headers['access-control-allow-origin']).to.equal('*');
    });
  });

  describe('X-Request-Id', () => {
    it('echoes a valid id, replaces an invalid one, makes one when absent', async () => {
      const given = await request(app).get('/cds').set('X-Request-Id', 'abc-123.x');
      expect(given.headers['x-request-id']).to.equal('abc-123.x');
      for (const invalid of ['no spaces <allowed>', 'x'.repeat(129)]) {
        const res = await request(app).get('/cds').set('X-Request-Id', invalid);
        expect(res.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
      }
      const absent = await request(app).get('/nope');
      expect(absent.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
      const other = await request(app).get('/nope');
      expect(other.headers['x-request-id']).to.not.equal(absent.headers['x-request-id']);
    });

    it('writes the id in the request log line and in the log of a failure', async () => {
      const logger = captureLogger();
      const logged = createApp({ store, logger, logRequests: true }).callback();
      await request(logged).get('/cds').set('X-Request-Id', 'trace-me').expect(200);
      expect(logger.lines).to.have.length(1);
      expect(logger.lines[0]?.fields).to.include({
        method: 'GET',
        path: '/cds',
        status: 200,
        requestId: 'trace-me',
      });
      const broken: CdStore = { ...store, list: () => Promise.reject(new Error('boom')) };
      const failing = createApp({ store: broken, logger }).callback();
      const res = await request(failing).get('/cds').set('X-Request-Id', 'trace-500');
      expectErrorBody(res, 500);
      expect(res.headers['x-request-id']).to.equal('trace-500');
      const error = logger.lines.find((line) => line.level === 'error');
      expect(error?.fields).to.include({ requestId: 'trace-500' });
    });
  });
});
