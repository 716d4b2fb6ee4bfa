import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import type { CdStore } from '../../src/store/store.js';
import { captureLogger, expectErrorBody, makeCdInput, request } from '../helpers.js';
import { describeEachStore, mongoFactory, type StoreHandle } from '../stores.js';

/** A clock in 2030 that moves on by a second each time it is read. */
function clockIn2030() {
  let time = Date.parse('2030-06-15T12:00:00.000Z');
  return () => {
    time += 1000;
    return new Date(time);
  };
}

describeEachStore('ajv is the one judge of a CD', (factory) => {
  let handle: StoreHandle;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;

  beforeEach(async () => {
    handle = await factory.open();
    app = createApp({ store: handle.store, now: clockIn2030() }).callback();
  });
  afterEach(async () => {
    await handle.dispose();
  });

  it('stores what ajv accepts: next year of the clock, 200 characters beyond the BMP', async () => {
    const long = '\u{1F3B8}'.repeat(200);
    const created = await request(app)
      .post('/cds')
      .send(makeCdInput({ title: long, artist: long, releaseYear: 2031 }))
      .expect(201);
    expect(created.body).to.include({ title: long, artist: long, releaseYear: 2031 });
    const updated = await request(app)
      .put(`/cds/${created.body.id}`)
      .send({ genre: long, releaseYear: 2031 })
      .expect(200);
    expect(updated.body).to.include({ genre: long, releaseYear: 2031 });
    expect((await request(app).get(`/cds/${created.body.id}`).expect(200)).body).to.deep.equal(
      updated.body,
    );
    // One year more is ajv's refusal, a 400 with details, whatever the store.
    const refused = await request(app)
      .post('/cds')
      .send(makeCdInput({ releaseYear: 2032 }));
    expectErrorBody(refused, 400);
    expect(refused.body.details).to.deep.equal([
      { field: 'releaseYear', message: 'must be an integer from 1800 to 2031' },
    ]);
  });
});

if (mongoFactory) {
  const factory = mongoFactory;
  describe('a refusal of the Mongoose schema [mongodb]', () => {
    let handle: StoreHandle;
    beforeEach(async () => {
      handle = await factory.open();
    });
    afterEach(async () => {
      await handle.dispose();
    });

    it('is a 400 with details, never a 500, and stores nothing', async () => {
      const { store } = handle;
      // Writes of another shape, which ajv never lets through, forced past it to the schema.
      const forced: CdStore = {
        ...store,
        insert: (record) => store.insert({ ...record, releaseYear: 'soon' as never }),
        update: (id, changes) => store.update(id, { ...changes, title: null as never }),
      };
      const logger = captureLogger();
      const app = createApp({ store: forced, logger }).callback();
      const created = await request(app).post('/cds').send(makeCdInput());
      expectErrorBody(created, 400);
      expect(created.body.details).to.deep.equal([
        { field: 'releaseYear', message: 'must be a number' },
      ]);
      expect(await store.count()).to.equal(0);

      const kept = createApp({ store }).callback();
      const cd = (await request(kept).post('/cds').send(makeCdInput()).expect(201)).body;
      const updated = await request(app).put(`/cds/${cd.id}`).send({ genre: 'Jazz' });
      expectErrorBody(updated, 400);
      expect(updated.body.details).to.deep.equal([{ field: 'title', message: 'is required' }]);
      expect((await request(kept).get(`/cds/${cd.id}`).expect(200)).body).to.deep.equal(cd);
      expect(logger.lines.filter((line) => line.level === 'error')).to.deep.equal([]);
    });
  });
}
