import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { captureLogger, expectErrorBody, listen } from '../src/testing/http.js';
import { fixtureService } from './fixture.js';

/** Sends raw bytes and reads the whole answer until the server closes or `ms` pass. */
function rawExchange(url: string, request: string, ms = 2000): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    setTimeout(() => socket.destroy(), ms).unref();
  });
}

/** A POST of raw bytes (supertest re-encodes a Buffer body). */
function rawPost(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{
  status: number;
  headers: Record<string, unknown>;
  body: { error?: string; status?: number };
}> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('hardening', () => {
  const { app, request } = fixtureService();
  const server = app.callback();

  it('answers a method no route has with 405 and Allow: JSON on the API, the layout on pages', async () => {
    for (const method of ['PROPFIND', 'SEARCH', 'PURGE', 'LOCK', 'LINK']) {
      const api = await request(server)[method.toLowerCase() as 'get']('/api/items');
      expectErrorBody(api as never, 405);
      expect(api.headers.allow, method).to.include('GET');
      const page = await request(server)[method.toLowerCase() as 'get']('/');
      expect(page.status, method).to.equal(405);
      expect(page.headers['content-type']).to.match(/html/);
      expect(page.text).to.include('Error page');
    }
  });

  it('answers a method no route has on a path that does not exist with 404', async () => {
    const res = await request(server).propfind!('/api/nothing-here');
    expectErrorBody(res as never, 404);
  });

  it('answers a query with broken percent-encoding with 400 naming the parameter', async () => {
    const res = await request(server).get('/api/items?name=%ZZ');
    expectErrorBody(res, 400);
    expect(res.body.details).to.deep.equal([
      { field: 'name', message: 'is not valid percent-encoding' },
    ]);
    // On a page, the error page in the site's layout, although the query was refused before any route.
    const page = await request(server).get('/?q=%E0%A4%A');
    expect(page.status).to.equal(400);
    expect(page.headers['content-type']).to.match(/^text\/html/);
    expect(page.text).to.include('The query parameter q is not valid percent-encoding');
  });

  describe('request bodies', () => {
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
          expect(res.headers.connection, encoding).to.equal('close');
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
  });

  describe('on a real socket', () => {
    let url: string;
    let close: () => void;
    before(async () => {
      const listening = await listen(fixtureService().app);
      url = listening.url;
      close = () => listening.server.close();
    });
    after(() => close());

    it('answers an HTTP/1.1 request without Host with the JSON error body', async () => {
      // Even for a URL whose answer the cache keeps.
      expect((await fetch(`${url}/api/items`)).status).to.equal(200);
      const answer = await rawExchange(url, 'GET /api/items HTTP/1.1\r\nConnection: close\r\n\r\n');
      expect(answer).to.match(/^HTTP\/1\.1 400/);
      expect(answer).to.include('application/json');
      expect(answer).to.include('"status":400');
      expect(answer).to.match(/x-content-type-options: nosniff/i);
    });

    it('answers two Host headers, or a Host that is not host[:port], with 400 and the JSON error body (RFC 9112 section 3.2)', async () => {
      const ask = (hosts: string[], version = '1.1') =>
        rawExchange(
          url,
          `GET /api/items HTTP/${version}\r\n${hosts.map((host) => `Host: ${host}\r\n`).join('')}Connection: close\r\n\r\n`,
        );
      for (const hosts of [
        ['a.example', 'b.example'],
        ['a.example', 'a.example'],
        ['a b'],
        ['a.example/path'],
        ['a.example:80:80'],
        ['a.example:8o'],
        ['user@a.example'],
        ['[::1'],
        ['[not-ipv6]'],
        ['[::1]x'],
        ['a%zz'],
        [':80'],
        ['a"b'],
        ['a<b>'],
      ]) {
        for (const version of ['1.1', '1.0']) {
          const answer = await ask(hosts, version);
          expect(answer, `${version} ${hosts.join(' + ')}`).to.match(/^HTTP\/1\.1 400/);
          expect(answer).to.include('application/json');
          expect(answer).to.match(
            /"error":"(The Host header is not a valid host\[:port\]|A request may have only one Host header)"/,
          );
        }
      }
      for (const host of [
        'a.example',
        'A.Example:8080',
        '127.0.0.1:3000',
        '[::1]:3001',
        '[2001:db8::7]',
        '[v1.fe80::a+en1]',
        'xn--bcher-kva.example',
        'a_b.example',
        'a%41.example',
        'a.example:',
        'localhost',
      ]) {
        expect(await ask([host]), host).to.match(/^HTTP\/1\.1 200/);
      }
    });

    it('answers CONNECT with 405 and the JSON error body', async () => {
      const answer = await rawExchange(
        url,
        'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
      );
      expect(answer).to.match(/^HTTP\/1\.1 405/);
      expect(answer).to.include('"status":405');
    });

    it('answers a malformed request with the JSON error body', async () => {
      const answer = await rawExchange(url, 'NOT HTTP AT ALL\r\n\r\n');
      expect(answer).to.match(/^HTTP\/1\.1 400/);
      expect(answer).to.include('"error":"Malformed HTTP request"');
    });

    it("answers request headers over Node's limit with 431 and the JSON error body", async () => {
      const answer = await rawExchange(
        url,
        `GET /api/items HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20 * 1024)}\r\n\r\n`,
      );
      expect(answer).to.match(/^HTTP\/1\.1 431/);
      expect(answer).to.include('"status":431');
    });

    it('never writes an error into an answer already under way: the connection is closed instead', async () => {
      const { port } = new URL(url);
      const received = await new Promise<string>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () =>
          socket.write('GET /streaming HTTP/1.1\r\nHost: x\r\n\r\n'),
        );
        let text = '';
        let garbageSent = false;
        socket.on('data', (chunk) => {
          text += chunk;
          if (!garbageSent && text.includes('first part')) {
            garbageSent = true;
            socket.write('NOT HTTP AT ALL\r\n\r\n');
          }
        });
        socket.on('error', () => {});
        socket.on('close', () => resolve(text));
      });
      expect(received).to.match(/^HTTP\/1\.1 200/);
      expect(received).to.include('first part');
      expect(received).not.to.include('HTTP/1.1 400');
    });

    it('logs a client that leaves in the middle of an answer, and prints no stack trace', async () => {
      const logger = captureLogger();
      logger.level = 'debug';
      const listening = await listen(fixtureService({ logger }).app);
      const printed: unknown[] = [];
      const consoleError = console.error;
      console.error = (...args: unknown[]) => printed.push(args);
      try {
        const { port } = new URL(listening.url);
        const socket = connect(Number(port), '127.0.0.1', () =>
          socket.write('GET /streaming HTTP/1.1\r\nHost: x\r\n\r\n'),
        );
        socket.once('data', () => socket.destroy());
        const left = 'the client left before the answer was sent';
        while (!logger.lines.some((line) => line.message === left)) {
          await new Promise((resolve) => setImmediate(resolve));
        }
      } finally {
        console.error = consoleError;
        listening.server.close();
      }
      expect(printed).to.deep.equal([]);
      expect(logger.lines.filter((line) => line.level === 'error')).to.deep.equal([]);
    });

    /** Sends a 50 MB body as fast as the server takes it: the answer, and how much was sent. */
    const sendLargeBody = (headers: string) => {
      const { port } = new URL(url);
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

    it('answers an oversized body with 413 and Connection: close, without reading the rest', async () => {
      const result = await sendLargeBody('Content-Type: application/json\r\n');
      expect(result.answer).to.match(/^HTTP\/1\.1 413/);
      expect(result.answer).to.match(/connection: close/i);
      expect(result.sent).to.be.below(result.declared / 2);
    });

    it('closes the connection after any error answered before the body was read (415 here), without reading the rest', async () => {
      const result = await sendLargeBody('Content-Type: text/plain\r\n');
      expect(result.answer).to.match(/^HTTP\/1\.1 415/);
      expect(result.answer).to.match(/connection: close/i);
      expect(result.sent).to.be.below(result.declared / 2);
    });
  });
});
