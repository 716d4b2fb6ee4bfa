import { get, type IncomingHttpHeaders, type Server } from 'node:http';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv } from 'ajv';
import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { COMPRESS_THRESHOLD } from '../../src/http/respond.js';
import type { Logger } from '../../src/log.js';
import { checkDestinationName, destinationParameter } from '../../src/routes/params.js';
import {
  conformance,
  seededItineraries as itineraries,
  listen,
  request,
  seededApp,
  seededDestinations,
} from '../helpers.js';

const app = seededApp().callback();
type Operations = Record<
  string,
  {
    parameters?: { name: string; in: string; schema: Record<string, unknown> }[];
    responses: Record<string, unknown>;
  }
>;
const paths = () => conformance.document.paths as unknown as Record<string, Operations>;
const byJsonSize = [...itineraries.all].sort(
  (a, b) => JSON.stringify(a.itinerary).length - JSON.stringify(b.itinerary).length,
);
/** The largest itinerary answer, worth compressing. */
const large = byJsonSize.at(-1)!;
/** An itinerary with the fewest highlights: its highlights answer is too small to compress. */
const fewHighlights = [...itineraries.all].sort(
  (a, b) =>
    a.itinerary.activities.filter((x) => x.highlight).length -
    b.itinerary.activities.filter((x) => x.highlight).length,
)[0]!;

/** Every documented GET route, with an example value in its path. */
const documentedUrls = () =>
  Object.keys(paths()).map((template) => template.replace('{destination}', large.slug));

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
        '/api/itineraries',
        '/api/itineraries/{destination}',
        '/api/itineraries/{destination}/highlights',
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

    it('documents the destination parameter with the rules the service applies, and its 400 and 404', () => {
      for (const template of [
        '/api/itineraries/{destination}',
        '/api/itineraries/{destination}/highlights',
      ]) {
        const operation = paths()[template]?.get;
        expect(operation?.parameters).to.deep.equal([destinationParameter]);
        expect(operation?.responses).to.include.keys(['200', '304', '400', '404', '500']);
      }
      expect(destinationParameter.schema).to.include({ maxLength: 100, minLength: 1 });
      const validate = new Ajv().compile(destinationParameter.schema);
      const accepts = (name: string) => {
        try {
          checkDestinationName(name);
          return true;
        } catch {
          return false;
        }
      };
      const names = [
        ...seededDestinations.map((d) => d.name),
        ...itineraries.all.map((e) => e.slug),
        'São Paulo',
        "Côte d'Ivoire",
        'Sa\u0303o',
        '東京',
        'a'.repeat(100),
        'é'.repeat(100),
        'a'.repeat(101),
        '😀',
        '<b>',
        'a/b',
        'a_b',
        'a+b',
        'a;b',
        'a\nb',
        '\u0000',
        '%41',
      ];
      for (const name of names) expect(validate(name), name).to.equal(accepts(name));
    });
  });

  describe('/docs', () => {
    it('renders every operation of the document', async () => {
      const res = await request(app).get('/docs').expect(200).expect('Content-Type', /html/);
      for (const path of Object.keys(conformance.document.paths))
        expect(res.text).to.include(`<code>${path}</code>`);
      expect(res.text).to.not.match(/undefined|NaN/);
      expect(res.text).to.not.match(/<(script|link)[^>]+https?:/);
      expect(res.text, 'no inline style or script').to.not.match(/style=|<style|<script/);
    });
  });

  describe('ETag', () => {
    for (const path of [
      '/api/itineraries',
      `/api/itineraries/${large.slug}`,
      `/api/itineraries/${large.slug}/highlights`,
      '/openapi.json',
      `/itineraries/${large.slug}`,
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
      const path = `/api/itineraries/${large.slug}`;
      const plain = await request(app).get(path).set('Accept-Encoding', 'identity');
      const gzip = await request(app).get(path).set('Accept-Encoding', 'gzip');
      const br = await request(app).get(path).set('Accept-Encoding', 'br');
      expect(new Set([plain.headers.etag, gzip.headers.etag, br.headers.etag]).size).to.equal(3);
      await request(app)
        .get(path)
        .set('Accept-Encoding', 'gzip')
        .set('If-None-Match', gzip.headers.etag ?? '')
        .expect(304);
      await request(app)
        .get(path)
        .set('Accept-Encoding', 'gzip')
        .set('If-None-Match', plain.headers.etag ?? '')
        .expect(200);
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
        ['/api/itineraries', /public, max-age=\d+/],
        [`/api/itineraries/${large.slug}`, /public, max-age=\d+/],
        ['/openapi.json', /public, max-age=\d+/],
        ['/docs', /public, max-age=\d+/],
        [`/itineraries/${large.slug}`, /public, max-age=\d+/],
        [`/itineraries?destination=${large.slug}`, /public, max-age=\d+/],
        ['/', /no-store/],
        ['/healthz', /no-store/],
        ['/nope', /no-store/],
      ];
      for (const [path, expected] of cases) {
        const res = await request(app).get(path);
        expect(res.headers['cache-control'] ?? '', path).to.match(expected);
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

    it('has an itinerary answer large enough to compress', () => {
      expect(JSON.stringify(large.itinerary).length).to.be.at.least(COMPRESS_THRESHOLD);
    });

    for (const [encoding, decode] of [
      ['gzip', promisify(gunzip)],
      ['br', promisify(brotliDecompress)],
    ] as const) {
      for (const path of [
        `/api/itineraries/${large.slug}`,
        '/openapi.json',
        '/docs',
        `/itineraries/${large.slug}`,
      ]) {
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
      const small = await rawGet(`/api/itineraries/${fewHighlights.slug}/highlights`, 'gzip');
      expect(small.body.length).to.be.below(COMPRESS_THRESHOLD);
      expect(small.headers['content-encoding']).to.equal(undefined);
      const health = await rawGet('/healthz', 'gzip, br');
      expect(health.headers['content-encoding']).to.equal(undefined);
      const identity = await rawGet(`/api/itineraries/${large.slug}`, 'identity');
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
        .options('/api/itineraries')
        .set('Origin', 'https://example.com')
        .set('Access-Control-Request-Method', 'GET')
        .expect(204);
      expect(res.headers['access-control-allow-origin']).to.equal('*');
      expect(res.headers['access-control-allow-methods']).to.include('GET');
    });

    it('marks API responses readable cross-origin, pages not', async () => {
      for (const path of ['/api/itineraries/kyoto', '/healthz', '/openapi.json']) {
        const api = await request(app).get(path).set('Origin', 'https://example.com');
        expect(api.headers['access-control-allow-origin'], path).to.equal('*');
        expect(api.headers['access-control-expose-headers'], path).to.include('ETag');
      }
      for (const path of ['/', '/docs', '/itineraries/kyoto']) {
        const page = await request(app).get(path).set('Origin', 'https://example.com');
        expect(page.headers['access-control-allow-origin'], path).to.equal(undefined);
      }
    });

    it('allows only the configured origins', async () => {
      const strict = createApp({ itineraries, corsOrigins: ['https://good.example'] }).callback();
      const good = await request(strict)
        .get('/api/itineraries/kyoto')
        .set('Origin', 'https://good.example');
      expect(good.headers['access-control-allow-origin']).to.equal('https://good.example');
      expect(good.headers.vary).to.match(/Origin/);
      const bad = await request(strict)
        .get('/api/itineraries/kyoto')
        .set('Origin', 'https://evil.example');
      expect(bad.headers['access-control-allow-origin']).to.equal(undefined);
    });

    it('can be turned off', async () => {
      const closed = createApp({ itineraries, corsOrigins: [] }).callback();
      const res = await request(closed)
        .get('/api/itineraries/kyoto')
        .set('Origin', 'https://example.com');
      expect(res.headers['access-control-allow-origin']).to.equal(undefined);
    });
  });

  describe('X-Request-Id', () => {
    it('echoes a valid id, replaces an invalid one, makes one when absent', async () => {
      const given = await request(app)
        .get('/api/itineraries/kyoto')
        .set('X-Request-Id', 'abc-123.x');
      expect(given.headers['x-request-id']).to.equal('abc-123.x');
      const invalid = await request(app)
        .get('/api/itineraries/kyoto')
        .set('X-Request-Id', 'no spaces <allowed>');
      expect(invalid.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
      const absent = await request(app).get('/nope');
      expect(absent.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
      const error = await request(app).get('/api/itineraries/%E0%A4%A');
      expect(error.status).to.equal(400);
      expect(error.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    });

    it('writes the id in the request log line', async () => {
      const lines: Record<string, unknown>[] = [];
      const logger: Logger = {
        info: (message, fields) => lines.push({ message, ...fields }),
        warn() {},
        error() {},
      };
      const logged = createApp({ itineraries, logger, logRequests: true }).callback();
      await request(logged).get('/api/itineraries/kyoto').set('X-Request-Id', 'trace-me');
      expect(lines).to.deep.include({
        message: 'request',
        method: 'GET',
        path: '/api/itineraries/kyoto',
        status: 200,
        requestId: 'trace-me',
        ms: lines[0]?.ms,
      });
    });

    it('writes the id in the log line of an unexpected failure', async () => {
      const errors: Record<string, unknown>[] = [];
      const logger: Logger = {
        info() {},
        warn() {},
        error: (message, fields) => errors.push({ message, ...fields }),
      };
      const broken = createApp({
        itineraries: Object.assign(Object.create(itineraries), {
          find: () => {
            throw new Error('boom');
          },
        }),
        logger,
      }).callback();
      const res = await request(broken)
        .get('/api/itineraries/kyoto')
        .set('X-Request-Id', 'failing-1');
      expect(res.status).to.equal(500);
      expect(errors).to.have.length(1);
      expect(errors[0]).to.include({ message: 'unhandled error', requestId: 'failing-1' });
    });
  });
});
