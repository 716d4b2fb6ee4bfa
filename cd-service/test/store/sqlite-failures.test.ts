import Database from 'better-sqlite3';
import { expect } from 'chai';
import { StoreUnavailable } from '../../src/cd/errors.js';
import { buildListQuery } from '../../src/cd/query.js';
import { changesFor } from '../../src/cd/records.js';
import type { Cd } from '../../src/cd/schema.js';
import {
  openCdDatabase,
  openSqliteStore,
  READ_UNAVAILABLE,
  SqliteUnavailable,
  sqliteStore,
  WRITE_UNAVAILABLE,
} from '../../src/store/sqlite.js';
import type { CdStore } from '../../src/store/store.js';
import { folderEachTest } from '../fixtures.js';
import { makeRecord, rejection } from '../helpers.js';

/** The store unavailable: when to retry, a message for the client, the SQLite cause. */
function expectUnavailable(error: unknown, code: RegExp): void {
  expect(error).to.be.instanceOf(SqliteUnavailable).and.instanceOf(StoreUnavailable);
  const failure = error as SqliteUnavailable;
  expect(failure.retryAfterSeconds).to.equal(5);
  expect(failure.message).to.equal(WRITE_UNAVAILABLE);
  expect(failure.code).to.match(code);
  expect(failure.cause).to.be.instanceOf(Database.SqliteError);
}

/** Reads still answer, with what was there. */
async function expectReadsServed(store: CdStore, kept: Cd): Promise<void> {
  expect((await store.get(kept.id))?.cd).to.deep.equal(kept);
  const page = await store.list(buildListQuery({}));
  expect(page.items).to.deep.include(kept);
  await store.ping();
}

/**
 * A real database whose statements fail, when asked, as SQLite does on a failing disk: a
 * statement that changes something (`writes`) or one that only reads (`reads`) throws a
 * SqliteError of that code.
 */
function failingDatabase(real: Database.Database) {
  const control: { db: Database.Database; writes?: string; reads?: string } = { db: real };
  const fail = (code: string | undefined) => {
    if (code) throw new Database.SqliteError(`injected ${code}`, code);
  };
  control.db = new Proxy(real, {
    get(target, property) {
      if (property !== 'prepare') {
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (sql: string) => {
        const statement = target.prepare(sql);
        const code = () => (statement.readonly ? control.reads : control.writes);
        return new Proxy(statement, {
          get(inner, name) {
            const value = Reflect.get(inner, name, inner);
            if (typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              if (name === 'run' || name === 'get' || name === 'all' || name === 'iterate')
                fail(code());
              const result = value.apply(inner, args);
              return result === inner ? new Proxy(inner, this) : result;
            };
          },
        });
      };
    },
  });
  return control;
}

describe('SQLite store: a failing database answers writes with 503', () => {
  const folder = folderEachTest();

  it('a full database (SQLITE_FULL): refuses what does not fit, keeps what did, counts true, serves reads, recovers', async () => {
    const db = openCdDatabase(folder.file);
    const store = sqliteStore(db);
    folder.closeAfter(() => store.close());
    const { cd: kept } = await store.insert(makeRecord());
    // The database may not grow by a page: as a full disk would.
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true })}`);
    const writes = await Promise.allSettled(
      Array.from({ length: 200 }, () => store.insert(makeRecord())),
    );
    // The writes that fit in the pages' free room are committed; each one that does not is
    // rolled back alone, its statement and the counting its triggers did.
    const stored = writes.flatMap((w) => (w.status === 'fulfilled' ? [w.value] : []));
    const refused = writes.flatMap((w) => (w.status === 'rejected' ? [w.reason] : []));
    expect(refused).not.to.be.empty;
    for (const reason of refused) expectUnavailable(reason, /^SQLITE_FULL$/);
    for (const written of stored) expect(await store.get(written.cd.id)).to.deep.equal(written);
    expect(await store.count()).to.equal(1 + stored.length);
    expect((await store.list(buildListQuery({ limit: 1000 }))).total).to.equal(1 + stored.length);
    expect(db.prepare('SELECT COUNT(*) FROM cds').pluck().get()).to.equal(1 + stored.length);
    await expectReadsServed(store, kept);

    db.pragma('max_page_count = 1073741823');
    const later = await store.insert(makeRecord());
    expect(await store.get(later.cd.id)).to.deep.equal(later);
    expect(await store.count()).to.equal(2 + stored.length);
  });

  for (const code of [
    'SQLITE_IOERR_WRITE',
    'SQLITE_IOERR_FSYNC',
    'SQLITE_READONLY',
    'SQLITE_CORRUPT',
  ]) {
    it(`a database failing with ${code} (injected): writes 503, the rest of the batch too`, async () => {
      const failing = failingDatabase(openCdDatabase(folder.file));
      const store = sqliteStore(failing.db);
      folder.closeAfter(() => store.close());
      const { cd: kept } = await store.insert(makeRecord());
      failing.writes = code;
      const results = await Promise.allSettled([
        store.insert(makeRecord()),
        store.insert(makeRecord()),
      ]);
      for (const result of results) {
        expectUnavailable((result as PromiseRejectedResult).reason, new RegExp(`^${code}$`));
      }
      expectUnavailable(
        await rejection(store.update(kept.id, changesFor({ title: 'New' }, new Date()))),
        new RegExp(`^${code}$`),
      );
      expectUnavailable(await rejection(store.delete(kept.id)), new RegExp(`^${code}$`));
      await expectReadsServed(store, kept);
      expect(await store.count()).to.equal(1);
      failing.writes = undefined;
      await store.insert(makeRecord());
      expect(await store.count()).to.equal(2);
    });
  }

  it('a read that fails with an I/O error (injected): 503 with its own message', async () => {
    const failing = failingDatabase(openCdDatabase(folder.file));
    const store = sqliteStore(failing.db);
    folder.closeAfter(() => store.close());
    const { cd: kept } = await store.insert(makeRecord());
    failing.reads = 'SQLITE_IOERR_READ';
    for (const read of [
      () => store.get(kept.id),
      () => store.list(buildListQuery({ artist: 'x' })),
      () => store.count(),
      () => store.ping(),
    ]) {
      const error = (await rejection(read())) as SqliteUnavailable;
      expect(error).to.be.instanceOf(SqliteUnavailable);
      expect(error.message).to.equal(READ_UNAVAILABLE);
      expect(error.code).to.equal('SQLITE_IOERR_READ');
    }
    failing.reads = undefined;
    expect((await store.get(kept.id))?.cd).to.deep.equal(kept);
  });

  it('a lock held too long by another connection (SQLITE_BUSY): writes 503, reads served, recovers', async () => {
    const store = openSqliteStore(folder.file, { busyTimeoutMs: 1 });
    folder.closeAfter(() => store.close());
    const { cd: kept } = await store.insert(makeRecord());
    const other = new Database(folder.file);
    folder.closeAfter(() => other.close());
    other.exec('BEGIN IMMEDIATE');
    expectUnavailable(await rejection(store.insert(makeRecord())), /^SQLITE_BUSY/);
    await expectReadsServed(store, kept);
    other.exec('ROLLBACK');
    await store.insert(makeRecord());
    expect(await store.count()).to.equal(2);
  });

  it('a write the schema refuses is no database failure: it stays an error (a 500)', async () => {
    const store = openSqliteStore(folder.file);
    folder.closeAfter(() => store.close());
    const bad = makeRecord();
    bad.title = null as never;
    const error = await rejection(store.insert(bad));
    expect(error).not.to.be.instanceOf(StoreUnavailable);
    expect(String(error)).to.match(/NOT NULL constraint failed/);
  });
});
