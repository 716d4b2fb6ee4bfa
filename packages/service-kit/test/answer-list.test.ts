import { get, type IncomingMessage } from 'node:http';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import request from 'supertest';
import { describeApi } from '../src/api.js';
import { serviceApp } from '../src/app.js';
import { answerList, LISTS_AT_ONCE, WHOLE_LIST_MAX } from '../src/cache-control.js';
import type { Operation } from '../src/operations.js';
import { listen } from '../src/testing/http.js';

/** Text that compresses little (a quarter at best), so that a compressor cannot hide a backlog. */
function noise(seed: number, length: number): string {
  let x = seed | 1;
  let text = '';
  while (text.length < length) {
    // xorshift32: 32-bit steps, exact in a JavaScript number
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    text += (x >>> 0).toString(36);
  }
  return text.slice(0, length);
}

/**
 * An app whose list is made as it is read; `made` counts the characters its items came to. With
 * `told`, the app tells `answerList` how many items there are.
 */
function listApp(count: number, version = 'v1', told = false) {
  const made = { items: 0, chars: 0, started: 0, ended: 0 };
  function* items() {
    made.started++;
    try {
      for (let id = 1; id <= count; id++) {
        made.items++;
        yield { id, text: noise(id, 200) };
      }
    } finally {
      made.ended++;
    }
  }
  const operation: Operation = {
    id: 'list',
    method: 'get',
    path: '/api/list',
    summary: 'A list',
    responses: { 200: { description: 'The list', schema: { type: 'array' } } },
    errors: [],
    handler: (ctx) =>
      answerList(ctx, items, version, {
        shape: (item) => {
          made.chars += item.text.length + 20;
          return item;
        },
        count: told ? count : undefined,
      }),
  };
  const api = describeApi({ title: 'List', version: '1', description: 'A list.' }, [operation]);
  const app = serviceApp({
    service: 'list',
    root: fileURLToPath(new URL('fixture', import.meta.url)),
    api,
    jsonPaths: ['/api'],
  });
  return { app, made };
}

const expected = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: i + 1, text: noise(i + 1, 200) }));

/** Polls until `value` stays the same a few times in a row: the writer has stopped. */
async function settled(value: () => number): Promise<number> {
  let last = -1;
  for (let same = 0; same < 5; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = value();
    same = now === last ? same + 1 : 0;
    last = now;
  }
  return last;
}

describe('answerList', function () {
  // Lists of a million items, written against clients that stop reading: on a busy machine
  // (CI's builds beside the tests) filling the sockets takes far longer than mocha's default.
  this.timeout(120_000);
  it('answers the JSON array of the items, piece by piece, stable, with a weak tag of the version', async () => {
    for (const count of [0, 1, 2, 300]) {
      const { app } = listApp(count);
      const res = await request(app.callback()).get('/api/list');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('application/json; charset=utf-8');
      expect(res.headers['cache-control']).to.equal('public, max-age=300');
      expect(res.headers['content-length']).to.equal(undefined);
      expect(res.headers.etag).to.match(/^W\/"v1\.[\w-]{16}"$/);
      expect(res.body).to.deep.equal(expected(count));
    }
  });

  it('tags by version, path and query: the same in two apps of one version, never shared', async () => {
    const tag = async (version: string, path: string) =>
      (await request(listApp(3, version).app.callback()).get(path)).headers.etag;
    expect(await tag('v1', '/api/list')).to.equal(await tag('v1', '/api/list'));
    const tags = [
      await tag('v1', '/api/list'),
      await tag('v2', '/api/list'),
      await tag('v1', '/api/list?sort=id'),
    ];
    expect(new Set(tags).size).to.equal(3);
  });

  it('answers 304 to If-None-Match and HEAD with the headers of GET, without making an item', async () => {
    const { app, made } = listApp(3000);
    const server = app.callback();
    for (const encoding of ['identity', 'gzip', 'br']) {
      const got = await request(server).get('/api/list').set('Accept-Encoding', encoding);
      made.items = 0;
      const head = await request(server).head('/api/list').set('Accept-Encoding', encoding);
      for (const name of ['content-encoding', 'content-type', 'etag', 'cache-control', 'vary']) {
        expect(head.headers[name], `${encoding}: ${name}`).to.equal(got.headers[name]);
      }
      expect(head.headers['content-length']).to.equal(undefined);
      const cached = await request(server)
        .get('/api/list')
        .set('Accept-Encoding', encoding)
        .set('If-None-Match', got.headers.etag ?? '');
      expect(cached.status).to.equal(304);
      expect(cached.headers.etag).to.equal(got.headers.etag);
      expect(made.items).to.equal(0);
    }
  });

  it('compresses as it goes: gzip and br decode to the same list', async () => {
    const { app } = listApp(3000);
    for (const encoding of ['gzip', 'br']) {
      const res = await request(app.callback()).get('/api/list').set('Accept-Encoding', encoding);
      expect(res.headers['content-encoding']).to.equal(encoding);
      expect(res.body).to.deep.equal(expected(3000));
    }
  });

  it(`writes at most ${LISTS_AT_ONCE} lists at once: the next waits for one to end`, async () => {
    const { app, made } = listApp(1_000_000);
    const { url, server } = await listen(app);
    const requests = Array.from({ length: LISTS_AT_ONCE + 1 }, () =>
      get(`${url}/api/list`, { headers: { 'Accept-Encoding': 'identity' } }, (res) => res.pause()),
    );
    try {
      await settled(() => made.chars);
      expect(made.started).to.equal(LISTS_AT_ONCE);
      requests[0]?.destroy();
      await settled(() => made.chars);
      expect(made.started).to.equal(LISTS_AT_ONCE + 1);
    } finally {
      for (const req of requests) req.destroy();
      await settled(() => made.ended);
      server.close();
    }
    expect(made.ended).to.equal(LISTS_AT_ONCE + 1);
  });

  it(`answers a list told to hold at most ${WHOLE_LIST_MAX} items whole, without waiting for a place`, async () => {
    const longer = await request(listApp(WHOLE_LIST_MAX + 1, 'v1', true).app.callback()).get(
      '/api/list',
    );
    expect(longer.headers['content-length']).to.equal(undefined);
    expect(longer.headers.etag).to.match(/^W\/"v1\.[\w-]{16}"$/);
    const busy = listApp(1_000_000);
    const { url, server } = await listen(busy.app);
    const requests = Array.from({ length: LISTS_AT_ONCE }, () =>
      get(`${url}/api/list`, { headers: { 'Accept-Encoding': 'identity' } }, (res) => res.pause()),
    );
    try {
      await settled(() => busy.made.chars);
      expect(busy.made.started).to.equal(LISTS_AT_ONCE);
      for (const count of [0, WHOLE_LIST_MAX]) {
        const res = await request(listApp(count, 'v1', true).app.callback())
          .get('/api/list')
          .set('Accept-Encoding', 'identity');
        expect(res.status).to.equal(200);
        expect(res.headers['cache-control']).to.equal('public, max-age=300');
        expect(Number(res.headers['content-length'])).to.be.above(0);
        expect(res.body).to.deep.equal(expected(count));
      }
    } finally {
      for (const req of requests) req.destroy();
      await settled(() => busy.made.ended);
      server.close();
    }
  });

  describe('with a client that stops reading', () => {
    // About 220 MB of JSON: made whole, it would all be counted in `made`.
    const COUNT = 1_000_000;
    for (const encoding of ['identity', 'gzip', 'br']) {
      it(`makes no more than the socket and a few pieces hold (${encoding}), and stops when the client leaves`, async () => {
        const { app, made } = listApp(COUNT);
        const { url, server } = await listen(app);
        try {
          const res = await new Promise<IncomingMessage>((resolve) => {
            get(`${url}/api/list`, { headers: { 'Accept-Encoding': encoding } }, resolve);
          });
          res.pause();
          const chars = await settled(() => made.chars);
          expect(made.items).to.be.below(COUNT);
          // What the kernel's socket buffers (about 10 MB here, compressed), the compressor and a
          // few pieces hold: a bound that does not grow with the list.
          expect(chars).to.be.below(48 * 1024 * 1024);
          expect(made.ended).to.equal(0);
          res.destroy();
          await settled(() => made.ended);
          expect(made.ended).to.equal(1);
        } finally {
          server.close();
        }
      });
    }
  });
});
