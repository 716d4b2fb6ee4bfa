import { expect } from 'chai';
import request from 'supertest';
import { fixtureService } from './fixture.js';

/**
 * GET `path` answers 200 with a weak ETag; the same GET with a matching If-None-Match gets 304
 * without a body, with another one 200. Returns the ETag.
 */
async function expectRevalidates(
  server: Parameters<typeof request>[0],
  path: string,
): Promise<string> {
  const first = await request(server).get(path).expect(200);
  const etag = first.headers.etag ?? '';
  if (!/^W\/"[\w+/=-]+"$/.test(etag)) throw new Error(`${path}: no weak ETag but "${etag}"`);
  const again = await request(server).get(path).set('If-None-Match', etag).expect(304);
  if ((again.text ?? '') !== '') throw new Error(`${path}: a 304 with a body`);
  await request(server).get(path).set('If-None-Match', '"other"').expect(200);
  return etag;
}

describe('conditional GET', () => {
  const { app, request } = fixtureService();
  const server = app.callback();

  for (const path of ['/api/items', '/', '/openapi.json', '/docs']) {
    it(`gives ${path} a weak ETag and answers a matching If-None-Match with 304`, async () => {
      await expectRevalidates(server, path);
    });
  }

  it('gives every encoding of a body the same weak ETag', async () => {
    const tags = [];
    for (const encoding of ['identity', 'gzip', 'br']) {
      const res = await request(server).get('/api/big/2').set('Accept-Encoding', encoding);
      tags.push(res.headers.etag);
    }
    expect(new Set(tags).size).to.equal(1);
    const notModified = await request(server)
      .get('/api/big/2')
      .set('Accept-Encoding', 'gzip')
      .set('If-None-Match', tags[0] ?? '')
      .expect(304);
    expect(notModified.headers['content-encoding']).to.equal(undefined);
  });

  it('gives no ETag to an answer that must not be stored', async () => {
    const res = await request(server).get('/healthz').expect(200);
    expect(res.headers.etag).to.equal(undefined);
    await request(server).get('/healthz').set('If-None-Match', 'W/"anything"').expect(200);
    await request(server).get('/healthz').set('If-None-Match', '*').expect(200);
  });
});
