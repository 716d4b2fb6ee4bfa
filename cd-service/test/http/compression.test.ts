import { get, type IncomingHttpHeaders, type Server } from 'node:http';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import { expect } from 'chai';
import { listen } from 'service-kit/testing';
import { createApp } from '../../src/app.js';
import type { Cd } from '../../src/cd/schema.js';
import { makeCdInput, request } from '../helpers.js';
import { describeEachStore, type StoreHandle } from '../stores.js';

describeEachStore('compression', (factory) => {
  let handle: StoreHandle;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let server: Server;
  let base: string;

  beforeEach(async () => {
    handle = await factory.open();
    const service = createApp({ store: handle.store });
    app = service.callback();
    ({ server, url: base } = await listen(service));
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await handle.dispose();
  });

  const create = async (overrides = {}): Promise<Cd> =>
    (await request(app).post('/cds').send(makeCdInput(overrides)).expect(201)).body;
  const fill = async (count: number) => {
    for (let i = 0; i < count; i++) await create({ title: `Filler album number ${i}` });
  };

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
    const href = /href="(\/assets\/base\.css\?v=[\w-]+)"/.exec(page.body.toString())?.[1];
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
    const { etag } = (await rawGet('/cds', 'gzip')).headers;
    const notModified = await new Promise<{ status: number; headers: IncomingHttpHeaders }>(
      (resolve, reject) => {
        get(
          `${base}/cds`,
          { headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': etag ?? '' } },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
          },
        ).on('error', reject);
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
