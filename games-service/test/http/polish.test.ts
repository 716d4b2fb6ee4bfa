import { get, type IncomingHttpHeaders, type Server } from 'node:http';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import type { Logger } from '../../src/log.js';
import {
  seededCatalogue as catalogue,
  conformance,
  listen,
  request,
  seededApp,
} from '../helpers.js';

const app = seededApp().callback();
const game = catalogue.topRated(1)[0]!;
type Paths = Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;

/** Every documented GET route, with example values in its path. */
const documentedUrls = () =>
  Object.keys(conformance.document.paths as Paths).map((template) =>
    template.replace('{id}', String(game.id)).replace('{genre}', game.genre),
  );

describe('OpenAPI document and HTTP polish', () => {
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
      expect(Object.keys(body.paths)).to.have.members([
        '/healthz',
        '/api/games',
        '/api/games/top-rated',
        '/api/games/hidden-gems',
        '/api/games/genre/{genre}',
        '/api/games/{id}',
        '/api/games/{id}/recommendations',
        '/openapi.json',
      ]);
    });

    it('answers every documented route as documented, for GET and HEAD', async () => {
      for (const url of documentedUrls()) {
        await request(app).get(url).expect(200);
        const head = await request(app).head(url).expect(200);
        expect(head.text, url).to.equal(undefined);
        expect(head.headers['content-type'], url).to.match(/json/);
      }
    });
  });

  describe('/docs', () => {
    it('renders every operation of the document', async () => {
      const res = await request(app).get('/docs').expect(200).expect('Content-Type', /html/);
      for (const path of Object.keys(conformance.document.paths))
        expect(res.text).to.include(`<code>${path}</code>`);
      expect(res.text).to.not.match(/undefined|NaN/);
      expect(res.text).to.not.match(/<(script|link)[^>]+https?:/);
    });
  });

  describe('ETag', () => {
    for (const path of [
      '/api/games',
      '/api/games/1',
      '/openapi.json',
      '/top-rated',
      '/games/1',
      '/docs',
    ]) {
      it(`${path}: 304 for a matching If-None-Match, 200 for another`, async () => {
        const first = await request(app).get(path).expect(200);
        const etag = first.headers.etag ?? '';
        expect(etag).to.match(/^(W\/)?"[\w-]+"$/);
        const again = await request(app).get(path).set('If-None-Match', etag).expect(304);
        expect(again.text ?? '').to.equal('');
        await request(app).get(path).set('If-None-Match', '"other"').expect(200);
      });
    }

    it('gives each encoding of a body its own validator', async () => {
      const plain = await request(app).get('/api/games').set('Accept-Encoding', 'identity');
      const gzip = await request(app).get('/api/games').set('Accept-Encoding', 'gzip');
      expect(plain.headers.etag).to.not.equal(gzip.headers.etag);
      await request(app)
        .get('/api/games')
        .set('Accept-Encoding', 'gzip')
        .set('If-None-Match', gzip.headers.etag ?? '')
        .expect(304);
    });
  });

  it('gives no validator to an answer that must not be stored', async () => {
    const home = await request(app).get('/').expect(200);
    expect(home.headers['cache-control']).to.equal('no-store');
    expect(home.headers.etag).to.equal(undefined);
  });

  describe('Cache-Control', () => {
    it('fits each route', async () => {
      const cases: [string, RegExp][] = [
        ['/api/games', /public, max-age=\d+/],
        ['/games/1', /public, max-age=\d+/],
        ['/', /no-store/],
        ['/random', /no-store/],
        ['/healthz', /no-store/],
        ['/nope', /no-store/],
      ];
      for (const [path, expected] of cases) {
        expect((await request(app).get(path)).headers['cache-control'], path).to.match(expected);
      }
    });
  });

  describe('compression', () => {
    let server: Server;
    let base: string;
    before(async () => ({ server, url: base } = await listen()));
    after(() => server.close());

    /** The raw bytes of a response, not decoded. */
    const rawGet = (path: string, encoding: string) =>
      new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        get(`${base}${path}`, { headers: { 'Accept-Encoding': encoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject);
      });

    for (const [encoding, decode] of [
      ['gzip', promisify(gunzip)],
      ['br', promisify(brotliDecompress)],
    ] as const) {
      for (const path of ['/api/games', '/docs', '/hidden-gems']) {
        it(`${path} in ${encoding} decodes to the same body`, async () => {
          const plain = await rawGet(path, 'identity');
          const packed = await rawGet(path, encoding);
          expect(packed.headers['content-encoding']).to.equal(encoding);
          expect(packed.headers.vary).to.match(/Accept-Encoding/i);
          expect((await decode(packed.body)).toString()).to.equal(plain.body.toString());
          expect(packed.body.length).to.be.below(plain.body.length);
        });
      }
    }

    it('leaves small responses and unwilling clients alone', async () => {
      const small = await rawGet(`/api/games/${game.id}/recommendations`, 'gzip');
      expect(small.headers['content-encoding']).to.equal(undefined);
      const identity = await rawGet('/api/games', 'identity');
      expect(identity.headers['content-encoding']).to.equal(undefined);
    });

    it('compresses the stylesheet', async () => {
      const home = await rawGet('/', 'identity');
      const href = /href="(\/assets\/styles\.css\?v=[\w-]+)"/.exec(home.body.toString())?.[1] ?? '';
      const css = await rawGet(href, 'br');
      expect(css.headers['content-encoding']).to.equal('br');
    });
  });

  describe('CORS', () => {
    it('answers a preflight on the API for any origin by default', async () => {
      const res = await request(app)
        .options('/api/games')
        .set('Origin', 'https://example.com')
        .set('Access-Control-Request-Method', 'GET')
        .expect(204);
      expect(res.headers['access-control-allow-origin']).to.equal('*');
      expect(res.headers['access-control-allow-methods']).to.include('GET');
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
      const good = await request(strict).get('/api/games/1').set('Origin', 'https://good.example');
      expect(good.headers['access-control-allow-origin']).to.equal('https://good.example');
      expect(good.headers.vary).to.match(/Origin/);
      const bad = await request(strict).get('/api/games/1').set('Origin', 'https://evil.example');
      expect(bad.headers['access-control-allow-origin']).to.equal(undefined);
    });

    it('can be turned off', async () => {
      const closed = createApp({ catalogue, corsOrigins: [] }).callback();
      const res = await request(closed).get('/api/games/1').set('Origin', 'https://example.com');
      expect(res.headers['access-control-allow-origin']).to.equal(undefined);
    });
  });

  describe('replay of answers', () => {
    it('answers a repeated GET with the same headers and body, and a fresh request id', async () => {
      const replayed = seededApp().callback();
      const first = await request(replayed)
        .get('/api/games/top-rated')
        .set('Accept-Encoding', 'identity');
      const second = await request(replayed)
        .get('/api/games/top-rated')
        .set('Accept-Encoding', 'identity');
      const stable = (headers: Record<string, string>) => {
        const { 'x-request-id': _, date: __, ...rest } = headers;
        return rest;
      };
      expect(stable(second.headers)).to.deep.equal(stable(first.headers));
      expect(second.text).to.equal(first.text);
      expect(second.headers['x-request-id']).to.not.equal(first.headers['x-request-id']);
      expect(second.headers['content-security-policy']).to.include("default-src 'self'");
    });

    it('keeps encodings and origins apart, and still answers conditional requests', async () => {
      const replayed = seededApp({ corsOrigins: ['https://good.example'] }).callback();
      for (let i = 0; i < 2; i++) {
        const plain = await request(replayed).get('/api/games').set('Accept-Encoding', 'identity');
        expect(plain.headers['content-encoding']).to.equal(undefined);
        const packed = await request(replayed).get('/api/games').set('Accept-Encoding', 'br');
        expect(packed.headers['content-encoding']).to.equal('br');
        const good = await request(replayed)
          .get('/api/games')
          .set('Origin', 'https://good.example');
        expect(good.headers['access-control-allow-origin']).to.equal('https://good.example');
        const other = await request(replayed)
          .get('/api/games')
          .set('Origin', 'https://evil.example');
        expect(other.headers['access-control-allow-origin']).to.equal(undefined);
        await request(replayed)
          .get('/api/games')
          .set('Accept-Encoding', 'identity')
          .set('If-None-Match', plain.headers.etag ?? '')
          .expect(304);
      }
    });

    it('never replays errors or random pages', async () => {
      const replayed = seededApp().callback();
      for (let i = 0; i < 2; i++) await request(replayed).get('/api/games/999999').expect(404);
      const homes = await Promise.all([1, 2, 3, 4].map(() => request(replayed).get('/')));
      expect(new Set(homes.map((home) => home.text)).size).to.be.greaterThan(1);
    });
  });

  describe('X-Request-Id', () => {
    it('echoes a valid id, replaces an invalid one, makes one when absent', async () => {
      const given = await request(app).get('/api/games/1').set('X-Request-Id', 'abc-123.x');
      expect(given.headers['x-request-id']).to.equal('abc-123.x');
      const invalid = await request(app)
        .get('/api/games/1')
        .set('X-Request-Id', 'no spaces <allowed>');
      expect(invalid.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
      const absent = await request(app).get('/nope');
      expect(absent.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    });

    it('writes the id in the request log line', async () => {
      const lines: Record<string, unknown>[] = [];
      const logger: Logger = {
        info: (message, fields) => lines.push({ message, ...fields }),
        warn() {},
        error() {},
      };
      const logged = createApp({ catalogue, logger, logRequests: true }).callback();
      await request(logged).get('/api/games/1').set('X-Request-Id', 'trace-me');
      expect(lines).to.deep.include({
        message: 'request',
        method: 'GET',
        path: '/api/games/1',
        status: 200,
        requestId: 'trace-me',
        ms: lines[0]?.ms,
      });
    });
  });
});
