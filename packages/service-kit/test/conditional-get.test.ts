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

  it('answers 304 beside a request Cache-Control: no-cache, which speaks to caches, not to the origin', async () => {
    const page = await request(server).get('/').expect(200);
    const href = /href="(\/assets\/styles\.css\?v=[\w-]+)"/.exec(page.text)?.[1] ?? '';
    for (const path of ['/api/items', '/', '/openapi.json', href]) {
      const { etag } = (await request(server).get(path).expect(200)).headers;
      for (const cacheControl of ['no-cache', 'max-age=0, no-cache']) {
        await request(server)
          .get(path)
          .set('Cache-Control', cacheControl)
          .set('If-None-Match', etag ?? '')
          .expect(304);
      }
    }
  });

  it('compares If-None-Match weakly and answers * with 304; another tag gets the full answer', async () => {
    const { etag } = (await request(server).get('/api/items').expect(200)).headers;
    const opaque = (etag ?? '').replace(/^W\//, '');
    for (const ifNoneMatch of [etag, opaque, `"other", ${etag}`, '*']) {
      await request(server)
        .get('/api/items')
        .set('If-None-Match', ifNoneMatch ?? '')
        .expect(304);
    }
    await request(server).get('/api/items').set('If-None-Match', 'W/"other"').expect(200);
  });

  it('answers If-Modified-Since with 304 when the file is no newer, unless If-None-Match is sent', async () => {
    const page = await request(server).get('/').expect(200);
    const href = /href="(\/assets\/styles\.css\?v=[\w-]+)"/.exec(page.text)?.[1] ?? '';
    const { headers } = await request(server).get(href).expect(200);
    const lastModified = headers['last-modified'] ?? '';
    const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
    const since = (date: string) => request(server).get(href).set('If-Modified-Since', date);
    await since(lastModified).set('Cache-Control', 'no-cache').expect(304);
    await since(earlier).expect(200);
    await since('not a date').expect(200);
    // Not HTTP-dates, though Date.parse reads them as later ones (RFC 9110 section 13.1.3: ignored).
    for (const loose of ['2100', '2100-01-01', 'Fri, 1 Jan 2100 00:00:00 +0000'])
      await since(loose).expect(200);
    // The obsolete forms are HTTP-dates too.
    const later = new Date(Date.parse(lastModified) + 1000);
    const [day, month, year, time] = later.toUTCString().split(' ').slice(0, 5).slice(1);
    const weekday = later.toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
    await since(`${weekday}, ${day}-${month}-${year?.slice(2)} ${time} GMT`).expect(304);
    const asctime = later
      .toUTCString()
      .replace(/^(\w{3}), (\d{2}) (\w{3}) (\d{4}) (\S+) GMT$/, '$1 $3 $2 $5 $4');
    await since(asctime.replace(/ 0(\d) /, '  $1 ')).expect(304);
    // If-None-Match decides alone when it is sent (RFC 9110 section 13.2.2).
    await since(lastModified).set('If-None-Match', '"other"').expect(200);
    await since(earlier)
      .set('If-None-Match', headers.etag ?? '')
      .expect(304);
  });

  it('gives no ETag to an answer that must not be stored', async () => {
    const res = await request(server).get('/healthz').expect(200);
    expect(res.headers.etag).to.equal(undefined);
    await request(server).get('/healthz').set('If-None-Match', 'W/"anything"').expect(200);
    await request(server).get('/healthz').set('If-None-Match', '*').expect(200);
  });
});
