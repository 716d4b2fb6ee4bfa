import { get, type IncomingHttpHeaders, type Server } from 'node:http';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import { expect } from 'chai';
import { listen } from 'service-kit/testing';
import { seededItineraries as itineraries, seededApp } from '../helpers.js';

/** The README's promise: responses over 1 KB are compressed. */
const THRESHOLD = 1024;
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

describe('compression', () => {
  let server: Server;
  let base: string;
  before(async () => ({ server, url: base } = await listen(seededApp())));
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
    expect(JSON.stringify(large.itinerary).length).to.be.at.least(THRESHOLD);
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
    expect(small.body.length).to.be.below(THRESHOLD);
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
