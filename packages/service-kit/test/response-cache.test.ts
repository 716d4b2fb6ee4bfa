import { get } from 'node:http';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import { expect } from 'chai';
import { captureLogger, listen } from '../src/testing/http.js';
import { fixtureService } from './fixture.js';

/** A GET whose body is kept as the bytes sent (supertest would decompress it). */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

/** A seeded pseudo-random source, so that every run sends the same headers. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('response cache', () => {
  it('answers a repeated GET from memory, without running the handler', async () => {
    const { app, calls, request } = fixtureService();
    const server = app.callback();
    const first = await request(server).get('/api/items').expect(200);
    const second = await request(server).get('/api/items').expect(200);
    expect(calls.list).to.equal(1);
    expect(second.body).to.deep.equal(first.body);
    expect(second.headers.etag).to.equal(first.headers.etag);
    expect(app.responseCache?.entries).to.equal(1);
  });

  it('keeps one entry per negotiated encoding, each decoding to the same bytes', async () => {
    const { app, calls } = fixtureService();
    const { url, server } = await listen(app);
    const raw = (encoding: string) => rawGet(`${url}/api/big/4`, { 'Accept-Encoding': encoding });
    const identity = await raw('identity');
    for (const [encoding, decode] of [
      ['br', promisify(brotliDecompress)],
      ['gzip', promisify(gunzip)],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const res = await raw(encoding);
        expect(res.headers['content-encoding']).to.equal(encoding);
        expect((await decode(res.body)).equals(identity.body)).to.equal(true);
      }
    }
    // `gzip;q=0.5, br;q=0.9, zstd` negotiates br: the entry already kept.
    const varied = await raw('gzip;q=0.5, br;q=0.9, zstd');
    expect(varied.headers['content-encoding']).to.equal('br');
    server.close();
    expect(calls.big).to.equal(3);
    expect(app.responseCache?.entries).to.equal(3);
  });

  it('stays under its bound whatever headers 1,000 requests vary', async () => {
    const maxBytes = 64 * 1024;
    const { app, request } = fixtureService({ cacheMaxBytes: maxBytes });
    const server = app.callback();
    const random = seeded(7);
    const encodings = ['br', 'gzip', 'identity', 'gzip, br', 'br;q=0.1, gzip', '*', 'x-unknown'];
    for (let i = 0; i < 1000; i++) {
      const pick = Math.floor(random() * 1000);
      await request(server)
        .get(`/api/big/${1 + (pick % 3)}`)
        .set('Origin', `https://site-${pick}.example`)
        .set('Accept-Encoding', encodings[pick % encodings.length] as string)
        .set('X-Anything', `value-${pick}`)
        .set('User-Agent', `agent-${pick}`)
        .expect(200);
      expect(app.responseCache!.bytes).to.be.at.most(maxBytes);
    }
    // Three sizes in three encodings: nine entries at most, never one per header value.
    expect(app.responseCache!.entries).to.be.at.most(9);
  });

  it('counts each URL in its bound: long query strings cannot outgrow it', async () => {
    const maxBytes = 64 * 1024;
    const { app, request } = fixtureService({ cacheMaxBytes: maxBytes });
    const server = app.callback();
    const padding = 'x'.repeat(6000);
    for (let n = 0; n < 40; n++) {
      await request(server).get(`/api/items?n=${n}&pad=${padding}`).expect(200);
      expect(app.responseCache!.bytes).to.be.at.most(maxBytes);
    }
    // Each entry weighs at least its 6 KB URL: at most ten fit in 64 KB.
    expect(app.responseCache!.entries).to.be.within(1, 10);
  });

  it('evicts the least recently used answers beyond its bound', async () => {
    const maxBytes = 40 * 1024;
    const { app, calls, request } = fixtureService({ cacheMaxBytes: maxBytes });
    const server = app.callback();
    const fetch = (n: number) =>
      request(server).get(`/api/big/3?n=${n}`).set('Accept-Encoding', 'identity').expect(200);
    for (let n = 1; n <= 20; n++) await fetch(n);
    expect(app.responseCache!.bytes).to.be.at.most(maxBytes);
    expect(app.responseCache!.entries).to.be.within(5, 19);
    await fetch(20); // the most recent is still kept
    expect(calls.big).to.equal(20);
    await fetch(1); // the oldest was evicted
    expect(calls.big).to.equal(21);
  });

  it('answers the read after a write with the new data', async () => {
    const { app, calls, request } = fixtureService();
    const server = app.callback();
    await request(server).get('/api/items').expect(200);
    await request(server).post('/api/items').send({ name: 'second' }).expect(201);
    const after = await request(server).get('/api/items').expect(200);
    expect(after.body.map((item: { name: string }) => item.name)).to.deep.equal([
      'first',
      'second',
    ]);
    expect(calls.list).to.equal(2);
  });

  it('empties itself when a write fails unexpectedly: it may have written first', async () => {
    const { app, request } = fixtureService();
    const server = app.callback();
    await request(server).get('/api/items').expect(200);
    await request(server).post('/api/items/half-done').expect(500);
    const after = await request(server).get('/api/items').expect(200);
    expect(after.body.map((item: { name: string }) => item.name)).to.include('half-done');
  });

  it('keeps what it holds when a write is refused as a client mistake', async () => {
    const { app, request } = fixtureService();
    const server = app.callback();
    await request(server).get('/api/items').expect(200);
    await request(server).post('/api/items').send({ name: 1 }).expect(400);
    expect(app.responseCache!.entries).to.equal(1);
  });

  it('never keeps an answer marked no-store, nor an error', async () => {
    const { app, request } = fixtureService();
    const server = app.callback();
    const a = await request(server).get('/api/random').expect(200);
    const b = await request(server).get('/api/random').expect(200);
    expect(a.body.value).to.not.equal(b.body.value);
    await request(server).get('/api/big/0').expect(404);
    expect(app.responseCache!.entries).to.equal(0);
  });

  it('sends the request id and CORS headers of each request, not those of the first', async () => {
    const { app, request } = fixtureService();
    const server = app.callback();
    await request(server).get('/api/items').set('X-Request-Id', 'first-one');
    const res = await request(server)
      .get('/api/items')
      .set('X-Request-Id', 'second-one')
      .set('Origin', 'https://allowed.example')
      .expect(200);
    expect(res.headers['x-request-id']).to.equal('second-one');
    expect(res.headers['access-control-allow-origin']).to.equal('https://allowed.example');
    const other = await request(server).get('/api/items').set('Origin', 'https://evil.example');
    expect(other.headers['access-control-allow-origin']).to.equal(undefined);
  });

  it('sends a kept answer with the headers Koa sent, but its own request id and date', async () => {
    const { app, calls } = fixtureService();
    const { url, server } = await listen(app);
    const first = await rawGet(`${url}/api/items`, { 'X-Request-Id': 'first' });
    const second = await rawGet(`${url}/api/items`, { 'X-Request-Id': 'second' });
    server.close();
    expect(calls.list).to.equal(1);
    expect(second.body.equals(first.body)).to.equal(true);
    const { date: _a, 'x-request-id': firstId, ...firstRest } = first.headers;
    const { date: _b, 'x-request-id': secondId, ...secondRest } = second.headers;
    expect([firstId, secondId]).to.deep.equal(['first', 'second']);
    expect(secondRest).to.deep.equal(firstRest);
  });

  it('answers a matching conditional GET with the 304 Koa would send', async () => {
    const notModified = async (cacheMaxBytes: number) => {
      const { app, calls, request } = fixtureService({ cacheMaxBytes });
      const server = app.callback();
      const { etag } = (await request(server).get('/api/items').expect(200)).headers;
      const res = await request(server)
        .get('/api/items')
        .set('If-None-Match', etag as string)
        .expect(304);
      const { date: _date, 'x-request-id': _id, ...headers } = res.headers;
      return { headers, calls: calls.list };
    };
    const cached = await notModified(64 * 1024);
    const fromKoa = await notModified(0);
    expect(cached.calls).to.equal(1);
    expect(fromKoa.calls).to.equal(2);
    expect(cached.headers).to.deep.equal(fromKoa.headers);
    expect(cached.headers).to.not.have.property('content-type');
  });

  it('logs and times a kept answer like any other, under its route template', async () => {
    const logger = captureLogger();
    const { app, request } = fixtureService({ logger, logRequests: true });
    const server = app.callback();
    await request(server).get('/api/items?page=1').expect(200);
    await request(server).get('/api/items?page=1').set('X-Request-Id', 'kept-1').expect(200);
    const requests = logger.lines.filter((line) => line.message === 'request');
    expect(requests).to.have.length(2);
    expect(requests[1]).to.include({
      method: 'GET',
      path: '/api/items',
      status: 200,
      requestId: 'kept-1',
    });
    const metrics = await app.metrics!.metrics();
    expect(metrics).to.match(
      /http_request_duration_seconds_count\{[^}]*route="\/api\/items"[^}]*status="200"[^}]*\} 2/,
    );
  });

  it('lets the app answer, and logs, when sending a kept answer fails', async () => {
    const logger = captureLogger();
    const { app, calls, request } = fixtureService({ logger });
    const server = app.callback();
    await request(server).get('/api/items').expect(200);
    app.responseCache!.send = () => {
      throw new Error('broken');
    };
    const res = await request(server).get('/api/items').expect(200);
    expect(res.body).to.deep.equal([{ id: 1, name: 'first' }]);
    expect(calls.list).to.equal(2);
    expect(logger.lines.map((line) => line.message)).to.include('sending a cached answer failed');
  });

  it('is off with a bound of 0', async () => {
    const { app, calls, request } = fixtureService({ cacheMaxBytes: 0 });
    await request(app.callback()).get('/api/items').expect(200);
    await request(app.callback()).get('/api/items').expect(200);
    expect(calls.list).to.equal(2);
    expect(app.responseCache).to.equal(undefined);
  });
});
