import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { newRecord } from '../../src/cd/records.js';
import type { Cd } from '../../src/cd/schema.js';
import type { CdStore } from '../../src/store/store.js';
import { expectErrorBody, makeCdInput, request } from '../helpers.js';
import { describeEachStore, type StoreHandle, sqliteFactory } from '../stores.js';

const WEAK_ETAG = /^W\/"[\w+/=-]+"$/;

/** The store, with the reads it is asked counted. */
function countingStore(store: CdStore, kind = store.kind) {
  const asked = { list: 0, get: 0 };
  const counting: CdStore = {
    ...store,
    kind,
    list: (query) => {
      asked.list++;
      return store.list(query);
    },
    get: (id) => {
      asked.get++;
      return store.get(id);
    },
  };
  return { counting, asked };
}

describeEachStore('caching', (factory) => {
  let handle: StoreHandle;
  let store: CdStore;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;

  beforeEach(async () => {
    handle = await factory.open();
    store = handle.store;
    app = createApp({ store }).callback();
  });
  afterEach(() => handle.dispose());

  const create = async (overrides = {}): Promise<Cd> =>
    (await request(app).post('/cds').send(makeCdInput(overrides)).expect(201)).body;

  describe('ETag and 304', () => {
    it('GET /cds: 304 for a matching If-None-Match, 200 for another, a new ETag once it changes', async () => {
      await create();
      const first = await request(app).get('/cds').expect(200);
      const etag = first.headers.etag ?? '';
      expect(etag).to.match(WEAK_ETAG);
      const again = await request(app).get('/cds').set('If-None-Match', etag).expect(304);
      expect(again.text ?? '').to.equal('');
      expect(again.headers['x-total-count']).to.equal('1');
      await request(app).head('/cds').set('If-None-Match', etag).expect(304);
      await request(app).get('/cds').set('If-None-Match', '"other"').expect(200);
      // Another query is another representation.
      const titles = await request(app).get('/cds?fields=title').expect(200);
      expect(titles.headers.etag).to.not.equal(etag);

      await create();
      const changed = await request(app).get('/cds').set('If-None-Match', etag).expect(200);
      expect(changed.headers.etag).to.not.equal(etag);
      expect(changed.body).to.have.length(2);
    });

    it('GET /cds/:id: 304 while unchanged, a new ETag once updated', async () => {
      const cd = await create();
      const first = await request(app).get(`/cds/${cd.id}`).expect(200);
      const etag = first.headers.etag ?? '';
      expect(etag).to.match(WEAK_ETAG);
      await request(app).get(`/cds/${cd.id}`).set('If-None-Match', etag).expect(304);
      await request(app).put(`/cds/${cd.id}`).send({ title: 'Changed' }).expect(200);
      const changed = await request(app).get(`/cds/${cd.id}`).set('If-None-Match', etag);
      expect(changed.status).to.equal(200);
      expect(changed.body.title).to.equal('Changed');
      expect(changed.headers.etag).to.match(WEAK_ETAG);
      expect(changed.headers.etag).to.not.equal(etag);
      await request(app)
        .get(`/cds/${cd.id}`)
        .set('If-None-Match', changed.headers.etag!)
        .expect(304);
    });

    it('/openapi.json and /docs: 304 for a matching If-None-Match', async () => {
      for (const path of ['/openapi.json', '/docs']) {
        const etag = (await request(app).get(path).expect(200)).headers.etag ?? '';
        expect(etag, path).to.match(WEAK_ETAG);
        await request(app).get(path).set('If-None-Match', etag).expect(304);
      }
    });

    it('gives errors and writes no validator', async () => {
      const missing = await request(app).get('/cds/00000000-0000-4000-8000-000000000000');
      expectErrorBody(missing, 404);
      expect(missing.headers.etag).to.equal(undefined);
      const created = await request(app).post('/cds').send(makeCdInput()).expect(201);
      expect(created.headers.etag).to.equal(undefined);
      const updated = await request(app)
        .put(`/cds/${created.body.id}`)
        .send({ title: 'x' })
        .expect(200);
      expect(updated.headers.etag).to.equal(undefined);
    });

    it('/healthz: no ETag and never 304, since it must not be stored', async () => {
      const first = await request(app).get('/healthz').expect(200);
      expect(first.headers['cache-control']).to.equal('no-store');
      expect(first.headers.etag).to.equal(undefined);
      for (const validator of ['"anything"', 'W/"anything"', '*']) {
        const again = await request(app).get('/healthz').set('If-None-Match', validator);
        expect(again.status, validator).to.equal(200);
        expect(again.body).to.deep.equal({ status: 'ok', store: factory.name });
        expect(again.headers.etag, validator).to.equal(undefined);
      }
    });
  });

  it('gives each route the Cache-Control that fits it', async () => {
    const cd = await create();
    const cases: [string, Promise<{ headers: Record<string, string> }>, RegExp][] = [
      ['GET /cds', request(app).get('/cds'), /^no-cache$/],
      ['GET /cds/:id', request(app).get(`/cds/${cd.id}`), /^no-cache$/],
      ['POST /cds', request(app).post('/cds').send(makeCdInput()), /^no-store$/],
      ['PUT /cds/:id', request(app).put(`/cds/${cd.id}`).send({ genre: 'x' }), /^no-store$/],
      ['GET /healthz', request(app).get('/healthz'), /^no-store$/],
      ['GET /openapi.json', request(app).get('/openapi.json'), /^public, max-age=\d+$/],
      ['GET /docs', request(app).get('/docs'), /^public, max-age=\d+$/],
      ['GET /nope', request(app).get('/nope'), /^no-store$/],
      ['GET /cds?limit=0', request(app).get('/cds?limit=0'), /^no-store$/],
    ];
    for (const [label, response, expected] of cases) {
      expect((await response).headers['cache-control'], label).to.match(expected);
    }
    const deleted = await request(app).delete(`/cds/${cd.id}`).expect(204);
    expect(deleted.headers['cache-control']).to.equal('no-store');
  });
});

describe('the response cache', () => {
  let handle: StoreHandle;
  beforeEach(async () => {
    handle = await sqliteFactory.open();
  });
  afterEach(() => handle.dispose());

  it('answers a repeated read on SQLite from memory, without asking the store', async () => {
    const { counting, asked } = countingStore(handle.store);
    const cached = createApp({ store: counting });
    const app = cached.callback();
    const cd = (await request(app).post('/cds').send(makeCdInput()).expect(201)).body as Cd;

    const first = await request(app).get('/cds?fields=title').expect(200);
    const second = await request(app).get('/cds?fields=title').expect(200);
    expect(asked.list).to.equal(1);
    expect(second.body).to.deep.equal(first.body);
    expect(second.headers.etag).to.equal(first.headers.etag);
    expect(second.headers['x-total-count']).to.equal('1');
    expect(second.headers['x-request-id']).to.not.equal(first.headers['x-request-id']);

    await request(app).get(`/cds/${cd.id}`).expect(200);
    const again = await request(app).get(`/cds/${cd.id}`).expect(200);
    expect(asked.get).to.equal(1);
    expect(again.body).to.deep.equal(cd);
    expect(cached.responseCache?.entries).to.equal(2);
    expect(cached.responseCache?.bytes).to.be.greaterThan(0);
  });

  it('keeps one answer per encoding, and answers a conditional read from it', async () => {
    const { counting, asked } = countingStore(handle.store);
    const app = createApp({ store: counting }).callback();
    for (let i = 0; i < 20; i++) await request(app).post('/cds').send(makeCdInput()).expect(201);
    const plain = await request(app).get('/cds').set('Accept-Encoding', 'identity').expect(200);
    const packed = await request(app).get('/cds').set('Accept-Encoding', 'br').expect(200);
    expect(packed.headers['content-encoding']).to.equal('br');
    expect(packed.body).to.deep.equal(plain.body);
    await request(app).get('/cds').set('Accept-Encoding', 'br').expect(200);
    await request(app)
      .get('/cds')
      .set('Accept-Encoding', 'identity')
      .set('If-None-Match', plain.headers.etag!)
      .expect(304);
    expect(asked.list).to.equal(2);
  });

  it('makes the read after every write fresh', async () => {
    const { counting, asked } = countingStore(handle.store);
    const app = createApp({ store: counting }).callback();
    const list = () => request(app).get('/cds?artist=Replay&fields=title').expect(200);

    expect((await list()).body).to.deep.equal([]);
    expect((await list()).body).to.deep.equal([]);
    expect(asked.list).to.equal(1);
    const created = await request(app)
      .post('/cds')
      .send(makeCdInput({ artist: 'Replay', title: 'One' }))
      .expect(201);
    expect((await list()).body).to.deep.equal([{ title: 'One' }]);
    expect(asked.list).to.equal(2);
    const id = created.body.id as string;
    expect((await request(app).get(`/cds/${id}`)).body.title).to.equal('One');

    await request(app).put(`/cds/${id}`).send({ title: 'Two' }).expect(200);
    expect((await list()).body).to.deep.equal([{ title: 'Two' }]);
    expect((await request(app).get(`/cds/${id}`)).body.title).to.equal('Two');

    await request(app).delete(`/cds/${id}`).expect(204);
    expect((await list()).body).to.deep.equal([]);
    await request(app).get(`/cds/${id}`).expect(404);
    expect(asked.list).to.equal(4);
  });

  it('is not emptied by a refused write, and keeps no error', async () => {
    const { counting, asked } = countingStore(handle.store);
    const cached = createApp({ store: counting, apiToken: 'secret' });
    const app = cached.callback();
    await request(app).get('/cds').expect(200);
    expectErrorBody(await request(app).post('/cds').send(makeCdInput()), 401);
    expectErrorBody(await request(app).post('/cds').set('Authorization', 'Bearer secret'), 400);
    await request(app).get('/cds').expect(200);
    expect(asked.list).to.equal(1);
    const missing = `/cds/${randomUUID()}`;
    for (let i = 0; i < 2; i++) expectErrorBody(await request(app).get(missing), 404);
    expect(asked.get).to.equal(2);
    expect(cached.responseCache?.entries).to.equal(1);
  });

  it('does not keep an answer read before a write that finished while it was sent', async () => {
    const real = handle.store;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holdNextList = true;
    // A store whose next list is read at once but answered only when the gate opens.
    const slowStore: CdStore = {
      ...real,
      list: async (query) => {
        const page = await real.list(query);
        if (holdNextList) {
          holdNextList = false;
          await gate;
        }
        return page;
      },
    };
    const app = createApp({ store: slowStore }).callback();
    const list = () => request(app).get('/cds?artist=Race&fields=title');

    const staleRead = list().then((res) => res); // supertest sends on then()
    await new Promise((resolve) => setTimeout(resolve, 20));
    await request(app)
      .post('/cds')
      .send(makeCdInput({ artist: 'Race', title: 'Written meanwhile' }))
      .expect(201);
    release();
    expect((await staleRead).body).to.deep.equal([]);
    expect((await list()).body).to.deep.equal([{ title: 'Written meanwhile' }]);
  });

  it('is off for a store of kind mongodb, which other processes may write to', async () => {
    const { counting, asked } = countingStore(handle.store, 'mongodb');
    const shared = createApp({ store: counting });
    expect(shared.responseCache).to.equal(undefined);
    const app = shared.callback();
    await request(app).get('/cds?artist=Shared').expect(200);
    // A write by another process: this one does not see it happen.
    await handle.store.insert(
      newRecord(makeCdInput({ artist: 'Shared' }), randomUUID(), new Date()),
    );
    expect((await request(app).get('/cds?artist=Shared')).body).to.have.length(1);
    expect(asked.list).to.equal(2);
  });

  it('can be turned off on SQLite too', async () => {
    const { counting, asked } = countingStore(handle.store);
    const uncached = createApp({ store: counting, cacheMaxBytes: 0 });
    expect(uncached.responseCache).to.equal(undefined);
    for (let i = 0; i < 2; i++) await request(uncached.callback()).get('/cds').expect(200);
    expect(asked.list).to.equal(2);
  });
});
