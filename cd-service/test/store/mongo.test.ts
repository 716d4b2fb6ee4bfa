import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import mongoose, { type Connection } from 'mongoose';
import { InvalidCd } from '../../src/cd/errors.js';
import { changesFor, newRecord } from '../../src/cd/records.js';
import type { CdRecord } from '../../src/cd/schema.js';
import { openMongoStore } from '../../src/store/mongo.js';
import type { CdStore } from '../../src/store/store.js';
import { captureLogger, makeCdInput } from '../helpers.js';
import { freePort, skipWithoutMongo } from '../mongo-target.js';
import { MONGODB_URI, mongoFactory, type StoreHandle } from '../stores.js';
import { describeStoreContract } from './contract.js';

/** The failure of a promise that must fail. */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a failure'),
    (error: unknown) => error,
  );
}

/** Asserts an invalid CD naming exactly these fields. */
function expectRefused(error: unknown, fields: string[]) {
  expect(error).to.be.instanceOf(InvalidCd);
  const refusal = error as InvalidCd;
  expect(refusal.details.map((detail) => detail.field)).to.have.members(fields);
}

if (mongoFactory) {
  const factory = mongoFactory;
  describeStoreContract(factory);

  describe('MongoDB store: its schema and ajv agree [mongodb]', () => {
    let handle: StoreHandle;
    let store: CdStore;
    beforeEach(async () => {
      handle = await factory.open();
      store = handle.store;
    });
    afterEach(async () => {
      await handle.dispose();
    });

    const record = (overrides: Partial<CdRecord> = {}, at = new Date()): CdRecord => ({
      ...newRecord(makeCdInput(), randomUUID(), at),
      ...overrides,
    });

    it('keeps what ajv accepts on the clock of the write: next year of a later clock', async () => {
      const later = new Date('2030-06-15T12:00:00.000Z');
      const created = await store.insert(record({ releaseYear: 2031 }, later));
      expect(await store.get(created.cd.id)).to.deep.equal(created);
      const updated = await store.update(created.cd.id, changesFor({ releaseYear: 2031 }, later));
      expect(updated?.cd.releaseYear).to.equal(2031);
    });

    it('counts text in code points as ajv does: 200 characters beyond the BMP fit', async () => {
      const long = '\u{1F3B5}'.repeat(200);
      const { cd } = await store.insert(record({ title: long, artist: long, genre: long }));
      expect((await store.get(cd.id))?.cd.title).to.equal(long);
      const updated = await store.update(cd.id, changesFor({ genre: long }, new Date()));
      expect(updated?.cd.genre).to.equal(long);
    });

    it('answers a write of another shape with a 400 naming the fields, storing nothing', async () => {
      expectRefused(
        await failure(store.insert(record({ releaseYear: 'soon' as never, title: undefined }))),
        ['releaseYear', 'title'],
      );
      expect(await store.count()).to.equal(0);
      const created = await store.insert(record());
      expectRefused(
        await failure(
          store.update(created.cd.id, { title: '', updatedAt: new Date().toISOString() }),
        ),
        ['title'],
      );
      expectRefused(
        await failure(
          store.update(created.cd.id, {
            releaseYear: 'soon' as never,
            updatedAt: new Date().toISOString(),
          }),
        ),
        ['releaseYear'],
      );
      expect(await store.get(created.cd.id)).to.deep.equal(created);
    });
  });

  describe('MongoDB store: CD versions in a database of before them [mongodb]', () => {
    const uri = MONGODB_URI as string;
    const dbName = `cd_service_versions_${process.pid}_${randomUUID().slice(0, 8)}`;
    let raw: Connection;
    beforeEach(async () => {
      raw = await mongoose.createConnection(uri, { dbName }).asPromise();
    });
    afterEach(async () => {
      await raw.dropDatabase();
      await raw.close();
    });

    it('gives each CD written without a version version 1 when it opens', async () => {
      const { id, ...rest } = newRecord(makeCdInput(), randomUUID(), new Date());
      await raw.collection('cds').insertOne({ _id: id as never, ...rest });
      const store = await openMongoStore(uri, { dbName });
      try {
        expect((await store.get(id))?.version).to.equal(1);
        const updated = await store.update(id, changesFor({ title: 'New' }, new Date()), {
          in: [1],
        });
        expect(updated?.version).to.equal(2);
      } finally {
        await store.close();
      }
    });
  });
} else {
  describe('store contract: mongodb', () => {
    before(skipWithoutMongo);
    it('runs the store contract against MongoDB when MONGODB_URI is set');
  });
}

describe('MongoDB store without a server', () => {
  it('fails fast, rather than hanging, when no MongoDB answers', async () => {
    // Nothing listens on port 1 of the loopback: the connection is refused at once.
    const error = await failure(
      openMongoStore('mongodb://127.0.0.1:1/cds', { serverSelectionTimeoutMS: 300 }),
    );
    expect(String(error)).to.match(
      /^Error: MongoDB at 127\.0\.0\.1:1 did not answer: .*(ECONNREFUSED|Server selection timed out|connect)/i,
    );
  });

  it('tries again with a doubling delay for connectTimeoutMs, then fails naming the host', async () => {
    const port = await freePort();
    const logger = captureLogger();
    const error = await failure(
      openMongoStore(`mongodb://user:s3cret@127.0.0.1:${port}/cds`, {
        serverSelectionTimeoutMS: 200,
        connectTimeoutMs: 2000,
        logger,
      }),
    );
    expect(String(error)).to.match(
      new RegExp(
        `^Error: MongoDB at 127\\.0\\.0\\.1:${port} did not answer within 2000 ms \\(\\d+ attempts\\)`,
      ),
    );
    const retries = logger.lines.filter((line) => line.level === 'warn');
    expect(retries.length).to.be.at.least(2);
    expect(retries.map((line) => line.attempt)).to.deep.equal(retries.map((_, i) => i + 1));
    expect(retries[0]).to.include({ hosts: `127.0.0.1:${port}`, retryInMs: 250 });
    expect(retries[1]).to.include({ retryInMs: 500 });
    expect(JSON.stringify(logger.lines) + String(error)).not.to.include('s3cret');
  });

  it('fails at once, naming the host, on what waiting cannot fix', async () => {
    const error = await failure(
      openMongoStore('mongodb://127.0.0.1:1/cds?notAnOption=1', { connectTimeoutMs: 60_000 }),
    );
    expect(String(error)).to.match(/^Error: MongoDB at 127\.0\.0\.1:1 cannot be used: /);
  });
});
