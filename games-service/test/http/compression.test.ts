import { get, type IncomingHttpHeaders, type Server } from 'node:http';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import { expect } from 'chai';
import { listen } from 'service-kit/testing';
import { seededCatalogue as catalogue, seededApp } from '../helpers.js';

describe('compression', () => {
  let server: Server;
  let base: string;
  before(async () => ({ server, url: base } = await listen(seededApp())));
  after(() => server.close());
  const game = catalogue.topRated(1)[0]!;

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
