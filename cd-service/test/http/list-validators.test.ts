import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import type { Cd } from '../../src/cd/schema.js';
import { appEachTest } from '../fixtures.js';
import { expectErrorBody, makeCdInput, request } from '../helpers.js';
import { describeEachStore } from '../stores.js';

const PAGING_HEADERS = ['x-total-count', 'x-total-count-relation', 'link'] as const;
const WEAK_TAG = /^W\/"[^"]+"$/;

describeEachStore('list validators', (factory) => {
  const fixture = appEachTest(factory);

  const create = async (overrides = {}): Promise<Cd> =>
    (await request(fixture.app).post('/cds').send(makeCdInput(overrides)).expect(201)).body;
  const list = (path: string, etag?: string) => {
    const req = request(fixture.app).get(path);
    return etag === undefined ? req : req.set('If-None-Match', etag);
  };
  const paging = (res: { headers: Record<string, string> }) =>
    Object.fromEntries(PAGING_HEADERS.map((name) => [name, res.headers[name]]));

  it('answers a matching If-None-Match with 304 and the 200s X-Total-Count and Link, no body', async () => {
    for (let i = 0; i < 5; i += 1) await create({ artist: 'A', title: `T${i}` });
    const cursorPage = (await list('/cds?artist=A&limit=2').expect(200)).headers.link?.match(
      /<([^>]+)>; rel="next"/,
    )?.[1];
    expect(cursorPage).to.be.a('string');
    for (const path of [
      '/cds?artist=A&limit=2',
      '/cds?limit=2&offset=2',
      '/cds?artist=A&before=2001&limit=1&sort=-title',
      '/cds?fields=title&limit=4',
      cursorPage as string,
      '/cds?limit=2&offset=9',
    ]) {
      const full = await list(path).expect(200);
      expect(full.headers.etag, path).to.match(WEAK_TAG);
      const again = await list(path, full.headers.etag).expect(304);
      expect(again.text, path).to.equal('');
      expect(again.headers.etag, path).to.equal(full.headers.etag);
      expect(paging(again), path).to.deep.equal(paging(full));
      expect(again.headers['cache-control'], path).to.equal(full.headers['cache-control']);
    }
  });

  it('answers 304 beside Cache-Control: no-cache, and 412 to an If-Match, which a weak tag never meets', async () => {
    await create();
    const full = await list('/cds').expect(200);
    for (const ifNoneMatch of [full.headers.etag, '*']) {
      const again = await list('/cds', ifNoneMatch).set('Cache-Control', 'no-cache').expect(304);
      expect(again.headers.etag).to.equal(full.headers.etag);
    }
    const opaque = full.headers.etag?.replace(/^W\//, '') ?? '';
    for (const ifMatch of [full.headers.etag, opaque]) {
      expectErrorBody(await list('/cds').set('If-Match', ifMatch ?? ''), 412);
    }
    await list('/cds').set('If-Match', '*').expect(200);
  });

  it('changes the tag when the body, X-Total-Count or Link would change: every write', async () => {
    const kept = await create({ artist: 'A' });
    const gone = await create({ artist: 'A' });
    const path = '/cds?artist=A&limit=1';
    const before = await list(path).expect(200);
    expect(before.headers.link).to.match(/rel="next"/);
    await request(fixture.app).delete(`/cds/${gone.id}`).expect(204);
    // The cached page's body is unchanged (its first CD stays), but its headers are not.
    const after = await list(path, before.headers.etag).expect(200);
    expect(after.headers['x-total-count']).to.equal('1');
    expect(after.headers.link).to.equal(undefined);
    let etag = after.headers.etag;
    expect(etag).to.not.equal(before.headers.etag);
    for (const write of [
      () => request(fixture.app).put(`/cds/${kept.id}`).send({ genre: 'Other' }).expect(200),
      () => create({ artist: 'B' }),
    ]) {
      await write();
      const next = await list(path, etag).expect(200);
      expect(next.headers.etag).to.not.equal(etag);
      etag = next.headers.etag;
    }
    await list(path, etag).expect(304);
  });

  it('gives each page its own tag, and another app on the same store (a replica) the same ones', async () => {
    for (let i = 0; i < 3; i += 1) await create();
    const paths = ['/cds?limit=1', '/cds?limit=1&offset=1', '/cds?limit=2', '/cds?sort=-title'];
    const tags = await Promise.all(
      paths.map(async (path) => (await list(path).expect(200)).headers.etag),
    );
    expect(new Set(tags).size).to.equal(paths.length);
    const replica = createApp({ store: fixture.handle.store }).callback();
    for (const [i, path] of paths.entries()) {
      await request(replica)
        .get(path)
        .set('If-None-Match', tags[i] as string)
        .expect(304);
    }
  });

  // Every start gives the store a new epoch (SQLite) or raises its version (MongoDB: for a write
  // whose process died before raising it): a database restored from a backup gives no old tag.
  it('answers 200 to a tag from before a restart; a store made afresh never gives it again', async () => {
    await create();
    const etag = (await list('/cds')).headers.etag as string;
    await fixture.handle.store.close();
    const reopened = createApp({ store: await fixture.handle.reopen() }).callback();
    await request(reopened).get('/cds').set('If-None-Match', etag).expect(200);
    const other = await factory.open();
    try {
      const fresh = createApp({ store: other.store }).callback();
      await request(fresh).post('/cds').send(makeCdInput()).expect(201);
      await request(fresh).get('/cds').set('If-None-Match', etag).expect(200);
    } finally {
      await other.dispose();
    }
  });

  it('keeps a 304 from a write refused by its precondition, which changes nothing', async () => {
    const cd = await create();
    const etag = (await list('/cds')).headers.etag as string;
    await request(fixture.app)
      .put(`/cds/${cd.id}`)
      .set('If-Match', '"99"')
      .send({ title: 'No' })
      .expect(412);
    await list('/cds', etag).expect(304);
  });
});
