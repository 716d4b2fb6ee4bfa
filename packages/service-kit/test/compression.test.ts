import { get } from 'node:http';
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import { Router } from '../src/routing.js';
import { listen } from '../src/testing/http.js';
import { fixtureService } from './fixture.js';

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

  it('gives a HEAD the headers of its GET: a Content-Length only when it is the same', async () => {
    const page = await request(server).get('/').set('Accept-Encoding', 'identity');
    const href = /href="(\/assets\/styles\.css\?v=[\w-]+)"/.exec(page.text)?.[1] ?? '';
    const paths = ['/api/big/2', '/api/items', '/openapi.json', '/docs', '/', href];
    for (const path of paths) {
      for (const encoding of ['gzip', 'br', 'gzip;q=0.5, br;q=0.1', 'identity']) {
        const label = `${path} ${encoding}`;
        const get = await request(server).get(path).set('Accept-Encoding', encoding);
        const head = await request(server).head(path).set('Accept-Encoding', encoding);
        expect(head.status, label).to.equal(get.status);
        for (const name of ['content-encoding', 'vary', 'etag', 'content-type', 'cache-control']) {
          expect(head.headers[name], `${label}: ${name}`).to.equal(get.headers[name]);
        }
        expect(head.headers['content-length'], label).to.equal(get.headers['content-length']);
      }
    }
    const big = await request(server).head('/api/big/2').set('Accept-Encoding', 'gzip');
    expect(big.headers['content-encoding']).to.equal('gzip');
    expect(big.headers['content-length']).to.equal(undefined);
  });

  it('says Vary: Accept-Encoding on what the routes answer, errors they throw included, pages and probes', async () => {
    for (const path of ['/api/items', '/api/boom', '/api/nope', '/nope', '/', '/healthz']) {
      const res = await request(server).get(path).set('Accept-Encoding', 'gzip');
      expect(res.headers.vary, path).to.match(/Accept-Encoding/);
    }
  });

  it('leaves small answers, 204 and clients that take nothing uncompressed', async () => {
    const small = await request(server).get('/api/items').set('Accept-Encoding', 'gzip, br');
    expect(small.headers['content-encoding']).to.equal(undefined);
    expect(small.headers.vary).to.match(/Accept-Encoding/);
    const plain = await request(server).get('/api/big/2').set('Accept-Encoding', 'identity');
    expect(plain.headers['content-encoding']).to.equal(undefined);
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

  describe('a streamed body', () => {
    const sources: PassThrough[] = [];
    const streamed = new Router().get('/streamed/:fate', (ctx) => {
      const source = new PassThrough();
      sources.push(source);
      source.write('x'.repeat(4096));
      if (ctx.params.fate === 'fails') setTimeout(() => source.destroy(new Error('disk gone')), 50);
      ctx.type = 'text';
      ctx.body = source;
    });
    const streaming = fixtureService({ routers: [streamed] }).app;

    it('is cut, not left open, when it fails under compression', async () => {
      const outcome = await request(streaming.callback())
        .get('/streamed/fails')
        .set('Accept-Encoding', 'gzip')
        .timeout(1500)
        .then(
          () => 'answered',
          (error: { code?: string; message: string }) => error.code ?? error.message,
        );
      expect(outcome).to.be.oneOf(['ECONNRESET', 'aborted', 'socket hang up']);
    });

    it('is closed at its source when the client leaves in the middle of its compressed answer', async () => {
      const listening = await listen(streaming);
      try {
        await new Promise<void>((resolve) => {
          get(
            `${listening.url}/streamed/waits`,
            { headers: { 'Accept-Encoding': 'gzip' } },
            (res) => {
              res.once('data', () => {
                res.destroy();
                resolve();
              });
            },
          );
        });
        const source = sources.at(-1) as PassThrough;
        for (let i = 0; i < 50 && !source.destroyed; i++)
          await new Promise((r) => setTimeout(r, 20));
        expect(source.destroyed).to.equal(true);
      } finally {
        listening.server.close();
      }
    });
  });
});
