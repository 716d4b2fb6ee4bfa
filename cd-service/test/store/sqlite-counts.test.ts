import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { buildListQuery, type ListParams } from '../../src/cd/query.js';
import { changesFor, newRecord } from '../../src/cd/records.js';
import { type CdInput, filterKey } from '../../src/cd/schema.js';
import { openCdDatabase, sqliteStore } from '../../src/store/sqlite.js';
import { SCHEMA_VERSION } from '../../src/store/sqlite-schema.js';
import type { CdStore } from '../../src/store/store.js';
import { folderEachTest } from '../fixtures.js';
import { makeCdInput } from '../helpers.js';
import { VERSION_0_SCHEMA } from './earlier-schemas.js';

const T0 = new Date('2024-01-02T03:04:05.678Z');

type CountRow = { filter: string; key: string; total: number };

/** The counts table as the store keeps it, and as the rows say it must be, in one order. */
function countsOf(file: string): { kept: CountRow[]; recounted: CountRow[] } {
  const db = new Database(file, { readonly: true });
  try {
    const kept = db
      .prepare('SELECT filter, key, total FROM counts ORDER BY filter, key')
      .all() as CountRow[];
    const recounted = db
      .prepare(
        `SELECT '' AS filter, '' AS key, COUNT(*) AS total FROM cds
         UNION ALL SELECT 'artist_key', artist_key, COUNT(*) FROM cds GROUP BY artist_key
         UNION ALL SELECT 'genre_key', genre_key, COUNT(*) FROM cds GROUP BY genre_key
         ORDER BY filter, key`,
      )
      .all() as CountRow[];
    return { kept, recounted };
  } finally {
    db.close();
  }
}

/** What was written, by id: the model the totals are checked against. */
type Model = Map<string, { artist: string; genre: string }>;

/**
 * Every count `store` answers agrees with `model`: the total, each artist's and each genre's
 * (a key that no CD holds counts 0), and the counts table equals a count of the rows.
 */
async function expectCountsTrue(store: CdStore, model: Model, file: string): Promise<void> {
  const total = async (params: ListParams) =>
    (await store.list(buildListQuery({ ...params, limit: 1 }))).total;
  const cds = [...model.values()];
  expect(await store.count()).to.equal(cds.length);
  expect(await total({})).to.equal(cds.length);
  for (const field of ['artist', 'genre'] as const) {
    const keys = new Set([...cds.map((cd) => filterKey(cd[field])), 'nobody holds this']);
    for (const key of keys) {
      const expected = cds.filter((cd) => filterKey(cd[field]) === key).length;
      expect(await total({ [field]: key.toUpperCase() }), `${field} ${key}`).to.equal(expected);
    }
  }
  const { kept, recounted } = countsOf(file);
  expect(kept).to.deep.equal(recounted);
}

describe('SQLite store: counts kept in the database', () => {
  const folder = folderEachTest();
  const open = folder.openStore;

  const write = (store: CdStore, model: Model) => ({
    add: async (input: Partial<CdInput>) => {
      const { cd } = await store.insert(newRecord(makeCdInput(input), randomUUID(), T0));
      model.set(cd.id, { artist: cd.artist, genre: cd.genre });
      return cd;
    },
    change: async (id: string, patch: Partial<CdInput>) => {
      const cd = (await store.update(id, changesFor(patch, T0)))?.cd;
      if (cd) model.set(cd.id, { artist: cd.artist, genre: cd.genre });
      return cd;
    },
    remove: async (id: string) => {
      const removed = await store.delete(id);
      model.delete(id);
      return removed;
    },
  });

  it('stay true through inserts, changes of artist or genre, other changes and deletes', async () => {
    const store = open();
    const model: Model = new Map();
    const { add, change, remove } = write(store, model);
    await expectCountsTrue(store, model, folder.file);

    const rock = [
      await add({ artist: 'A', genre: 'Rock' }),
      await add({ artist: 'a ', genre: 'ROCK' }),
      await add({ artist: 'B', genre: 'Rock' }),
    ];
    const jazz = [
      await add({ artist: 'B', genre: 'Jazz' }),
      await add({ artist: 'C', genre: 'Jazz' }),
    ];
    await expectCountsTrue(store, model, folder.file);

    await change(rock[0]?.id as string, { genre: 'jazz' });
    await expectCountsTrue(store, model, folder.file);
    await change(rock[1]?.id as string, { artist: 'D', genre: 'Blues' });
    await expectCountsTrue(store, model, folder.file);
    // The same key in another case, and a change of other fields: no count moves.
    await change(rock[2]?.id as string, { genre: ' rOCK ' });
    await change(jazz[0]?.id as string, { title: 'Renamed', releaseYear: 1999 });
    await expectCountsTrue(store, model, folder.file);
    expect(await change(randomUUID(), { genre: 'Nowhere' })).to.equal(undefined);
    await expectCountsTrue(store, model, folder.file);

    // The last CD of a key: its row goes.
    expect(await remove(rock[1]?.id as string)).to.equal(true);
    expect(await remove(rock[1]?.id as string)).to.equal(false);
    await expectCountsTrue(store, model, folder.file);
    expect(countsOf(folder.file).kept.map((row) => row.key)).not.to.include.members(['blues', 'd']);
    for (const id of [...model.keys()]) await remove(id);
    await expectCountsTrue(store, model, folder.file);
    expect(countsOf(folder.file).kept).to.deep.equal([{ filter: '', key: '', total: 0 }]);
  });

  it('do not move for a write that fails: its counting is undone with it', async () => {
    const store = open();
    const model: Model = new Map();
    const { add } = write(store, model);
    const kept = await add({ artist: 'A', genre: 'Rock' });
    const refused = newRecord(makeCdInput({ genre: 'Rock' }), randomUUID(), T0);
    refused.title = null as never;
    const duplicate = newRecord(makeCdInput({ genre: 'Rock' }), kept.id, T0);
    const failures = await Promise.allSettled([store.insert(refused), store.insert(duplicate)]);
    expect(failures.map((f) => f.status)).to.deep.equal(['rejected', 'rejected']);
    await expectCountsTrue(store, model, folder.file);
  });

  it('stay true for every connection to the file, whichever wrote', async () => {
    // The service's own store, and another connection to its file (the store's lock keeps a
    // second cd-service out, not a tool such as the sqlite3 shell).
    const one = open();
    const two = sqliteStore(openCdDatabase(folder.file));
    folder.closeAfter(() => two.close());
    const model: Model = new Map();
    const byOne = write(one, model);
    const byTwo = write(two, model);
    const first = await byOne.add({ artist: 'A', genre: 'Rock' });
    await expectCountsTrue(two, model, folder.file);
    await byTwo.change(first.id, { genre: 'Jazz' });
    await expectCountsTrue(one, model, folder.file);
    // Both write at once: each batch waits for the other's lock.
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? byOne : byTwo).add({ artist: `Artist ${i % 3}`, genre: i % 4 ? 'Pop' : 'Rock' }),
      ),
    );
    await byOne.remove(first.id);
    await expectCountsTrue(one, model, folder.file);
    await expectCountsTrue(two, model, folder.file);
  });

  it('are taken from the rows when a database of before the counts is opened, then kept', async () => {
    // A database as cd-service wrote it before schema versions (user_version 0): no counts.
    const db = new Database(folder.file);
    db.exec(VERSION_0_SCHEMA);
    const insert = db.prepare('INSERT INTO cds VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    const model: Model = new Map();
    for (let i = 0; i < 30; i++) {
      const record = newRecord(
        makeCdInput({ artist: `Artist ${i % 7}`, genre: ['Rock', 'Jazz', 'Pop'][i % 3] }),
        randomUUID(),
        T0,
      );
      insert.run(
        record.id,
        record.title,
        record.artist,
        record.genre,
        record.releaseYear,
        record.artistKey,
        record.genreKey,
        record.createdAt,
        record.updatedAt,
      );
      model.set(record.id, record);
    }
    db.prepare("INSERT INTO meta (key, value) VALUES ('seeded', ?)").run(T0.toISOString());
    db.close();

    const store = open();
    await expectCountsTrue(store, model, folder.file);
    const check = new Database(folder.file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).to.equal(SCHEMA_VERSION);
    check.close();
    const { add, change, remove } = write(store, model);
    const added = await add({ artist: 'Artist 1', genre: 'Folk' });
    await change(added.id, { genre: 'Rock' });
    await remove([...model.keys()][0] as string);
    await expectCountsTrue(store, model, folder.file);

    // Opened again, a database of this version is left as it is, and its counts stay true.
    await store.close();
    await expectCountsTrue(open(), model, folder.file);
  });

  it('a new database starts at this version, counting nothing', async () => {
    const store = open();
    expect(countsOf(folder.file).kept).to.deep.equal([{ filter: '', key: '', total: 0 }]);
    const check = new Database(folder.file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).to.equal(SCHEMA_VERSION);
    check.close();
    expect(await store.count()).to.equal(0);
  });
});
