import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { createServiceApp, describeApi } from 'service-kit';
import supertest from 'supertest';
import { jsonBody, requestBody } from '../../src/routes/json-body.js';
import { expectErrorBody } from '../helpers.js';

/** A service of one write that reads its body with jsonBody('1kb'), and what it took. */
function fixtureService() {
  const items: { name: unknown }[] = [];
  const api = describeApi({ title: 'Bodies', version: '1.0.0', description: 'One write.' }, [
    {
      id: 'addItem',
      method: 'post',
      path: '/api/items',
      summary: 'Add an item',
      responses: { 201: { description: 'Added' } },
      errors: [400, 413, 415],
      use: [jsonBody('1kb')],
      handler: (ctx) => {
        const { name } = requestBody(ctx) as { name?: unknown };
        items.push({ name });
        ctx.status = 201;
        ctx.body = { name };
      },
    },
  ]);
  const parts = { service: 'bodies', api, jsonPaths: ['/api'] };
  const app = createServiceApp(new URL('../../src/app.ts', import.meta.url).href, parts);
  return { app, items, request: supertest };
}

/** The app on a free port of 127.0.0.1, for bytes supertest would re-encode. */
async function listen(app: ReturnType<typeof createServiceApp>) {
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
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

  it('answers a body that is not JSON with 415, one over the limit with 413, one that does not parse with 400', async () => {
    expectErrorBody(await post().set('Content-Type', 'text/plain').send('x'), 415);
    const big = await post().send(JSON.stringify({ name: 'x'.repeat(2000) }));
    expectErrorBody(big, 413);
    expect(big.body.error).to.equal('The body is larger than 1kb');
    expectErrorBody(await post().send('{'), 400);
  });
});
