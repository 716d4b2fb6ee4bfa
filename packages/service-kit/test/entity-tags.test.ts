import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import request from 'supertest';
import { describeApi } from '../src/api.js';
import { serviceApp } from '../src/app.js';
import { judgePreconditions, requestPreconditions } from '../src/conditional-get.js';
import { expectErrorBody } from '../src/testing/http.js';

/** A service with one resource over the compression threshold, sent under a strong tag. */
function taggedService() {
  const big = { text: 'x'.repeat(4000) };
  const api = describeApi({ title: 'Tags', version: '1.0.0', description: 'Strong tags.' }, [
    {
      id: 'getThing',
      method: 'get',
      path: '/api/thing',
      summary: 'A big thing under a strong tag',
      responses: { 200: { description: 'The thing' } },
      errors: [],
      handler: (ctx) => {
        ctx.set('Cache-Control', 'no-cache');
        ctx.set('ETag', '"7"');
        ctx.body = big;
      },
    },
    {
      id: 'checkThing',
      method: 'put',
      path: '/api/thing',
      summary: 'What If-Match and If-None-Match said, read once',
      responses: { 200: { description: 'The tags' } },
      errors: [400],
      handler: (ctx) => {
        ctx.set('Cache-Control', 'no-store');
        const first = requestPreconditions(ctx);
        judgePreconditions(ctx, { etag: '"3"' });
        const { ifMatch = null, ifNoneMatch = null } = requestPreconditions(ctx);
        ctx.body = { ifMatch, ifNoneMatch, once: first === requestPreconditions(ctx) };
      },
    },
  ]);
  const root = join(dirname(fileURLToPath(import.meta.url)), 'fixture');
  return serviceApp({ service: 'tags', root, api, jsonPaths: ['/api'] }).callback();
}

describe('entity tags', () => {
  const server = taggedService();

  it('sends a strongly tagged answer uncompressed, and answers a matching If-None-Match with 304', async () => {
    const res = await request(server)
      .get('/api/thing')
      .set('Accept-Encoding', 'br, gzip')
      .expect(200);
    expect(res.headers.etag).to.equal('"7"');
    expect(res.headers['content-encoding']).to.equal(undefined);
    expect(res.body.text).to.have.length(4000);
    await request(server).get('/api/thing').set('If-None-Match', '"7"').expect(304);
    await request(server).get('/api/thing').set('If-None-Match', 'W/"7"').expect(304);
    await request(server).get('/api/thing').set('If-None-Match', '"8"').expect(200);
    const head = await request(server).head('/api/thing').set('Accept-Encoding', 'br, gzip');
    expect(head.headers['content-encoding']).to.equal(undefined);
    expect(head.headers['content-length']).to.equal(res.headers['content-length']);
  });

  const ifMatch = async (header: string | undefined) => {
    const req = request(server).put('/api/thing');
    if (header !== undefined) req.set('If-Match', header);
    const { body } = await req.expect(200);
    expect(body.once).to.equal(true);
    return body.ifMatch;
  };
  const strong = (opaque: string) => ({ opaque, weak: false });

  it('reads If-Match once a request: absent, *, one tag, a list', async () => {
    expect(await ifMatch(undefined)).to.equal(null);
    expect(await ifMatch('*')).to.equal('*');
    expect(await ifMatch(' * ')).to.equal('*');
    expect(await ifMatch('"3"')).to.deep.equal([strong('3')]);
    expect(await ifMatch('"3", W/"4",,"a,b" ,"5"')).to.deep.equal([
      strong('3'),
      { opaque: '4', weak: true },
      strong('a,b'),
      strong('5'),
    ]);
  });

  it('reads If-None-Match: absent, *, one tag, a list', async () => {
    const ifNoneMatch = async (header: string) =>
      (await request(server).put('/api/thing').set('If-None-Match', header).expect(200)).body
        .ifNoneMatch;
    expect((await request(server).put('/api/thing').expect(200)).body.ifNoneMatch).to.equal(null);
    expect(await ifNoneMatch(' * ')).to.equal('*');
    expect(await ifNoneMatch('"4", W/"5",,"a,b"')).to.deep.equal([
      strong('4'),
      { opaque: '5', weak: true },
      strong('a,b'),
    ]);
  });

  for (const field of ['If-Match', 'If-None-Match']) {
    for (const malformed of ['3', '"3" "4"', '"3', 'W/3', '*, "3"', 'w/"3"', '"a"b']) {
      it(`answers a malformed ${field} (${malformed}) with a 400 naming the header`, async () => {
        const res = await request(server).put('/api/thing').set(field, malformed).expect(400);
        expectErrorBody(res, 400);
        expect(res.body.details).to.deep.equal([
          { field, message: 'is not * nor a list of entity tags' },
        ]);
      });
    }
  }

  it('answers a GET or HEAD with a malformed If-None-Match in full, as if it named no tag', async () => {
    const res = await request(server).get('/api/thing').set('If-None-Match', '7').expect(200);
    expect(res.body.text).to.have.length(4000);
    await request(server).head('/api/thing').set('If-None-Match', '"3" "4"').expect(200);
  });

  it('judges If-Match on a GET: the tag passes, another or a weak one is a 412 saying which', async () => {
    await request(server).get('/api/thing').set('If-Match', '"7"').expect(200);
    await request(server).get('/api/thing').set('If-Match', '*').expect(200);
    const cases = [
      ['"8"', /has changed since/],
      ['W/"7"', /weak tag .* never matches/],
      ['7', /If-Match could not be read/],
    ] as const;
    for (const [header, message] of cases) {
      const res = await request(server).get('/api/thing').set('If-Match', header).expect(412);
      expectErrorBody(res, 412);
      expect(res.body.error).to.match(message);
    }
  });
});
