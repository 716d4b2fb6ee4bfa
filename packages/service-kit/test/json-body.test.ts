import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { expectErrorBody, listen } from '../src/testing/http.js';
import { fixtureService } from './fixture.js';
import { rawExchange, rawPost, servedFixture } from './raw-http.js';

describe('JSON request bodies', () => {
  const { app, request } = fixtureService();
  const server = app.callback();
  const post = () => request(server).post('/api/items').set('Content-Type', 'application/json');

  it('takes a gzip body and refuses a broken or truncated one with 400', async () => {
    const { url, server: listening } = await listen(fixtureService().app);
    try {
      const send = (encoding: string, body: Buffer) =>
        rawPost(
          `${url}/api/items`,
          { 'Content-Type': 'application/json', 'Content-Encoding': encoding },
          body,
        );
      const good = gzipSync(JSON.stringify({ name: 'zipped' }));
      expect((await send('gzip', good)).status).to.equal(201);
      // Content codings are case-insensitive (RFC 9110).
      expect((await send('GZIP', good)).status).to.equal(201);
      for (const [encoding, body] of [
        ['gzip', Buffer.from('garbage')],
        ['br', Buffer.from('garbage')],
        ['deflate', Buffer.from('garbage')],
        ['gzip', good.subarray(0, good.length - 6)],
      ] as const) {
        const res = await send(encoding, body);
        expect(res.status, encoding).to.equal(400);
        // The rest of the body was read and dropped: the connection carries on.
        expect(res.headers.connection, encoding).to.equal('keep-alive');
        expect(res.body.error).to.include(`not valid ${encoding} data`);
      }
    } finally {
      listening.close();
    }
  });

  it('refuses bytes that are not UTF-8 in a body declared UTF-8 with 400, a CESU-8 surrogate too, gzipped or not, and stores nothing', async () => {
    const { app, items } = fixtureService();
    const { url, server: listening } = await listen(app);
    const stored = items.length;
    try {
      const body = (bytes: number[]) =>
        Buffer.concat([Buffer.from('{"name":"a'), Buffer.from(bytes), Buffer.from('b"}')]);
      for (const [what, bytes] of [
        ['0xff 0xfe', [0xff, 0xfe]],
        ['a lone continuation byte', [0x80]],
        ['a truncated sequence', [0xe2, 0x82]],
        ['an overlong "/"', [0xc0, 0xaf]],
        ['a CESU-8 lone surrogate (U+D800)', [0xed, 0xa0, 0x80]],
        ['a CESU-8 surrogate pair (U+1D11E)', [0xed, 0xa0, 0xb4, 0xed, 0xb4, 0x9e]],
        ['beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
      ] as const) {
        for (const [contentType, encoding] of [
          ['application/json', undefined],
          ['application/json; charset=utf-8', undefined],
          ['application/json', 'gzip'],
        ] as const) {
          const raw = body([...bytes]);
          const res = await rawPost(
            `${url}/api/items`,
            { 'Content-Type': contentType, ...(encoding && { 'Content-Encoding': encoding }) },
            encoding ? gzipSync(raw) : raw,
          );
          expect(res.status, `${what} ${contentType} ${encoding}`).to.equal(400);
          expect(res.body).to.deep.equal({ error: 'The body is not valid UTF-8', status: 400 });
        }
      }
      expect(items.length).to.equal(stored);
      // Well-formed UTF-8 is taken as it is; a byte order mark before the JSON is dropped.
      for (const [bytes, name] of [
        [Buffer.from('{"name":"a\u00e9\u{1d11e}b"}'), 'a\u00e9\u{1d11e}b'],
        [Buffer.from('\ufeff{"name":"x"}'), 'x'],
      ] as const) {
        const res = await rawPost(
          `${url}/api/items`,
          { 'Content-Type': 'application/json' },
          bytes,
        );
        expect(res.status, name).to.equal(201);
        expect((res.body as { name?: string }).name).to.equal(name);
      }
    } finally {
      listening.close();
    }
  });

  it('refuses an encoding it does not take, and a charset other than UTF-8, with 415', async () => {
    expectErrorBody(await post().set('Content-Encoding', 'compress').send('{}'), 415);
    const latin1 = await request(server)
      .post('/api/items')
      .set('Content-Type', 'application/json; charset=latin1')
      .send(Buffer.from('{"name":"caf\xe9"}', 'latin1'));
    expectErrorBody(latin1, 415);
    expect(latin1.body.error).to.include('UTF-8');
    await request(server)
      .post('/api/items')
      .set('Content-Type', 'application/json; charset=UTF-8')
      .send('{"name":"café"}')
      .expect(201);
  });

  describe('on a real socket', () => {
    const served = servedFixture();

    /** Sends a 50 MB body as fast as the server takes it: the answer, and how much was sent. */
    const sendLargeBody = (headers: string) => {
      const { port } = new URL(served.url);
      const declared = 50 * 1024 * 1024;
      return new Promise<{ answer: string; sent: number; declared: number }>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1');
        let answer = '';
        let sent = 0;
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        socket.on('data', (data) => {
          answer += data;
        });
        socket.on('error', () => {});
        socket.on('close', () => resolve({ answer, sent, declared }));
        socket.write(
          `POST /api/items HTTP/1.1\r\nHost: x\r\n${headers}Content-Length: ${declared}\r\n\r\n`,
        );
        const pump = () => {
          while (sent < declared && !socket.destroyed) {
            sent += chunk.length;
            if (!socket.write(chunk)) return socket.once('drain', pump);
          }
        };
        pump();
      });
    };

    it('answers a body declared far over the limit with 413 and Connection: close, without reading the rest', async () => {
      const result = await sendLargeBody('Content-Type: application/json\r\n');
      expect(result.answer).to.match(/^HTTP\/1\.1 413/);
      expect(result.answer).to.match(/connection: close/i);
      expect(result.sent).to.be.below(result.declared / 2);
    });

    it('reads and drops the rest of a body a little over the limit, so the 413 is not lost to a reset and the connection carries the next request', async () => {
      const over = '{"name":"' + 'x'.repeat(200 * 1024) + '"}';
      const answer = await rawExchange(
        served.url,
        `POST /api/items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${over.length}\r\n\r\n${over}` +
          'GET /api/items HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      );
      expect(answer).to.match(/^HTTP\/1\.1 413/);
      expect(answer).to.match(
        /\r\n\r\n\{"error":"The body is larger than 1kb","status":413\}HTTP\/1\.1 200 /,
      );
    });

    it('closes the connection after any error answered before a body declared large was read (415 here), without reading the rest', async () => {
      const result = await sendLargeBody('Content-Type: text/plain\r\n');
      expect(result.answer).to.match(/^HTTP\/1\.1 415/);
      expect(result.answer).to.match(/connection: close/i);
      expect(result.sent).to.be.below(result.declared / 2);
    });
  });
});
