import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import type { CdStore } from '../../src/store/store.js';
import { makeCdInput, request } from '../helpers.js';
import { type StoreHandle, sqliteFactory } from '../stores.js';

describe('replayed answers on SQLite', () => {
  let handle: StoreHandle;
  afterEach(() => handle?.dispose());

  it('answers a repeated read from memory, and every write makes the next read fresh', async () => {
    handle = await sqliteFactory.open();
    const app = createApp({ store: handle.store }).callback();
    const list = () => request(app).get('/cds?artist=Replay&fields=title');

    expect((await list()).body).to.deep.equal([]);
    expect((await list()).body).to.deep.equal([]);
    const created = await request(app)
      .post('/cds')
      .send(makeCdInput({ artist: 'Replay', title: 'One' }))
      .expect(201);
    expect((await list()).body).to.deep.equal([{ title: 'One' }]);
    expect((await request(app).get(`/cds/${created.body.id}`)).body.genre).to.equal(
      created.body.genre,
    );

    await request(app).put(`/cds/${created.body.id}`).send({ title: 'Two' }).expect(200);
    expect((await list()).body).to.deep.equal([{ title: 'Two' }]);
    expect((await request(app).get(`/cds/${created.body.id}`)).body.title).to.equal('Two');

    await request(app).delete(`/cds/${created.body.id}`).expect(204);
    expect((await list()).body).to.deep.equal([]);
    await request(app).get(`/cds/${created.body.id}`).expect(404);
  });

  it('does not keep an answer read before a write that finished while it was sent', async () => {
    handle = await sqliteFactory.open();
    const real = handle.store;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holdNextList = true;
    // A store whose next list is read at once but answered only when the gate opens.
    const slowStore: CdStore = Object.create(real, {
      list: {
        value: async (query: Parameters<CdStore['list']>[0]) => {
          const page = await real.list(query);
          if (holdNextList) {
            holdNextList = false;
            await gate;
          }
          return page;
        },
      },
    });
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

  it('is off for a store other processes may write to', async () => {
    handle = await sqliteFactory.open();
    const shared: CdStore = Object.create(handle.store, { kind: { value: 'mongodb' } });
    const app = createApp({ store: shared }).callback();
    await request(app).get('/cds?artist=Shared').expect(200);
    await handle.store.insert(
      (await import('../../src/cd/records.js')).newRecord(
        makeCdInput({ artist: 'Shared' }),
        crypto.randomUUID(),
        new Date(),
      ),
    );
    expect((await request(app).get('/cds?artist=Shared')).body).to.have.length(1);
  });
});
