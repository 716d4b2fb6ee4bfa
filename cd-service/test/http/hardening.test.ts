import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { type Cd, TEXT_RULE } from '../../src/cd/schema.js';
import { openCdDatabase, sqliteStore, WRITE_UNAVAILABLE } from '../../src/store/sqlite.js';
import type { CdStore } from '../../src/store/store.js';
import { folderEachTest } from '../fixtures.js';
import {
  captureLogger,
  expectErrorBody,
  expectManyUnknownParameters,
  makeCdInput,
  request,
} from '../helpers.js';
import { describeEachStore, type StoreHandle } from '../stores.js';
import { INVISIBLE_TEXT, REFUSED_TEXT, UNUSUAL_TEXT } from '../text-cases.js';

describeEachStore('HTTP: the text a CD may hold', (factory) => {
  let handle: StoreHandle;
  let store: CdStore;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;

  beforeEach(async () => {
    handle = await factory.open();
    store = handle.store;
    app = createApp({ store }).callback();
  });
  afterEach(async () => {
    await handle.dispose();
  });

  /** The JSON text of `body` (JSON.stringify escapes a lone surrogate as \ud800). */
  const postJson = (json: string) =>
    request(app).post('/cds').set('Content-Type', 'application/json').send(json);

  for (const [what, texts] of [
    ['a control character or an unpaired surrogate', REFUSED_TEXT],
    ['a text with no visible character (e.g. "\\u200b" alone), like an empty one,', INVISIBLE_TEXT],
  ] as const) {
    it(`refuses ${what} in any text field: 400, nothing stored`, async () => {
      for (const text of texts) {
        for (const field of ['title', 'artist', 'genre'] as const) {
          const res = await postJson(JSON.stringify(makeCdInput({ [field]: text })));
          expectErrorBody(res, 400);
          expect(res.body.details, `${field} ${JSON.stringify(text)}`).to.deep.equal([
            { field, message: TEXT_RULE },
          ]);
        }
      }
      expect(await store.count()).to.equal(0);
    });
  }

  it('refuses them in an update too, and keeps the CD as it was', async () => {
    const cd: Cd = (await postJson(JSON.stringify(makeCdInput()))).body;
    for (const text of [...REFUSED_TEXT, ...INVISIBLE_TEXT]) {
      const res = await request(app)
        .put(`/cds/${cd.id}`)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ artist: text }));
      expectErrorBody(res, 400);
      expect(res.body, JSON.stringify(text)).to.deep.include({
        error: `Invalid update: artist ${TEXT_RULE}`,
        details: [{ field: 'artist', message: TEXT_RULE }],
      });
    }
    expect((await request(app).get(`/cds/${cd.id}`)).body).to.deep.equal(cd);
  });

  it('refuses a control character sent as raw UTF-8 bytes or as a JSON escape', async () => {
    // U+0085 NEXT LINE, a C1 control, as the two bytes C2 85 of UTF-8 in the body.
    const raw = '{"title":"next\u0085line","artist":"a","genre":"g","releaseYear":2000}';
    expect(Buffer.from(raw).includes(Buffer.from([0xc2, 0x85]))).to.equal(true);
    expect((await postJson(raw)).body.details).to.deep.equal([
      { field: 'title', message: TEXT_RULE },
    ]);
    const escaped = '{"title":"\\u0000x","artist":"a","genre":"g","releaseYear":2000}';
    expect((await postJson(escaped)).body.details).to.deep.equal([
      { field: 'title', message: TEXT_RULE },
    ]);
    const surrogate = '{"title":"x\\ud800y","artist":"a","genre":"g","releaseYear":2000}';
    expect((await postJson(surrogate)).body.details).to.deep.equal([
      { field: 'title', message: TEXT_RULE },
    ]);
    expect(await store.count()).to.equal(0);
  });

  it('stores, answers and finds every other text exactly as acknowledged', async () => {
    for (const text of UNUSUAL_TEXT) {
      const input = makeCdInput({ title: text, artist: text, genre: text });
      const created = await postJson(JSON.stringify(input));
      expect(created.status, JSON.stringify(text)).to.equal(201);
      expect(created.body).to.include(input);
      const read = await request(app).get(`/cds/${created.body.id}`);
      expect(read.body).to.deep.equal(created.body);
      const found = await request(app).get(`/cds?artist=${encodeURIComponent(text)}`);
      expect(found.body).to.deep.equal([created.body]);
      await request(app).delete(`/cds/${created.body.id}`).expect(204);
    }
  });

  it('answers 2,000 unknown parameters naming the first five and counting the rest, in a small body', async () => {
    await expectManyUnknownParameters((query) => request(app).get(`/cds?${query}`));
  });

  it('answers a filter no CD can match (a control character) with a 400 naming it', async () => {
    for (const query of ['artist=%00', 'genre=a%09b', 'artist=%C2%85']) {
      const res = await request(app).get(`/cds?${query}`);
      expectErrorBody(res, 400);
      expect(res.body.details[0].field).to.equal(query.split('=')[0]);
    }
  });
});

describe('HTTP: a failing SQLite database', () => {
  const folder = folderEachTest();
  let store: CdStore;
  let full: (on: boolean) => void;
  const logger = captureLogger('cd-service');
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;

  beforeEach(() => {
    const db = openCdDatabase(folder.file);
    store = sqliteStore(db);
    folder.closeAfter(() => store.close());
    // The database may not grow by a page, as on a full disk.
    full = (on) =>
      db.pragma(`max_page_count = ${on ? db.pragma('page_count', { simple: true }) : 1 << 30}`);
    logger.lines.splice(0);
    app = createApp({ store, logger }).callback();
  });

  it('answers writes 503 with Retry-After and the error body, logs the cause, serves reads', async () => {
    const kept: Cd = (await request(app).post('/cds').send(makeCdInput()).expect(201)).body;
    full(true);
    // A write that fits in the room left in the last pages is kept (SQLite undoes only the
    // write that fails): fill that room, so that none of the writes below fits.
    const big = () =>
      request(app)
        .post('/cds')
        .send(makeCdInput({ title: 'x'.repeat(200) }));
    const filled: Cd[] = [];
    for (let res = await big(); res.status === 201; res = await big()) filled.push(res.body);
    logger.lines.splice(0);
    const many = await Promise.all(
      Array.from({ length: 50 }, () =>
        request(app)
          .post('/cds')
          .send(makeCdInput({ title: 'x'.repeat(200) })),
      ),
    );
    for (const res of many) {
      expectErrorBody(res, 503);
      expect(res.body).to.deep.equal({ error: WRITE_UNAVAILABLE, status: 503 });
      expect(res.headers['retry-after']).to.equal('5');
      expect(res.headers['cache-control']).to.equal('no-store');
    }
    const logged = logger.lines.filter((line) => line.level === 'error');
    expect(logged).to.have.length(50);
    expect(logged[0]).to.deep.include({ message: WRITE_UNAVAILABLE, method: 'POST', path: '/cds' });
    const err = logged[0]?.err as { code: string; message: string };
    expect(err.code).to.equal('SQLITE_FULL');
    expect(err.message).to.include('database or disk is full');

    const listed = (await request(app).get('/cds').expect(200)).body;
    expect(listed)
      .to.have.length(1 + filled.length)
      .and.deep.include(kept);
    expect((await request(app).get(`/cds/${kept.id}`).expect(200)).body).to.deep.equal(kept);
    expect((await request(app).get('/healthz').expect(200)).body.status).to.equal('ok');

    full(false);
    await request(app).post('/cds').send(makeCdInput()).expect(201);
    expect(await store.count()).to.equal(2 + filled.length);
  });
});
