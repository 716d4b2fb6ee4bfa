import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import {
  buildListQuery,
  encodeCursor,
  keysetParts,
  type ListParams,
  orderFor,
} from '../../src/cd/query.js';
import { changesFor, newRecord } from '../../src/cd/records.js';
import { openCdDatabase, openSqliteStore, WAL_SIZE_LIMIT_BYTES } from '../../src/store/sqlite.js';
import { LIST_INDEXES, toSqlite } from '../../src/store/sqlite-schema.js';
import { folderEachTest } from '../fixtures.js';
import { makeCdInput, makeRecord } from '../helpers.js';
import { sqliteFactory } from '../stores.js';
import { describeStoreContract } from './contract.js';

describeStoreContract(sqliteFactory);

describe('SQLite store: the file', () => {
  const folder = folderEachTest();

  it('creates its schema on first start, in WAL mode', async () => {
    const file = join(folder.dir, 'cds.sqlite');
    const store = openSqliteStore(file);
    await store.close();
    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).to.equal('wal');
      const tables = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .pluck()
        .all();
      expect(tables).to.include.members(['cds', 'meta', 'counts']);
    } finally {
      db.close();
    }
    const reopened = openSqliteStore(file);
    await reopened.close();
  });

  it('writes durably (synchronous=FULL), its statement journals in memory (temp_store), not in files', () => {
    const db = openCdDatabase(join(folder.dir, 'cds.sqlite'));
    try {
      expect(db.pragma('synchronous', { simple: true })).to.equal(2); // FULL
      expect(db.pragma('temp_store', { simple: true })).to.equal(2); // MEMORY
    } finally {
      db.close();
    }
  });

  /** The plan of a list query's page and of its count, on the database in `file`. */
  function plans(file: string) {
    const db = new Database(file, { readonly: true });
    const explain = (sql: string, values: unknown[]) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(values) as { detail: string }[])
        .map((row) => row.detail)
        .join(' | ');
    return {
      page: (params: ListParams) => {
        const { sql, params: values } = toSqlite(buildListQuery(params));
        return explain(sql, values);
      },
      /** The plan of each part of a keyset page (keysetParts). */
      parts: (params: ListParams) => {
        const query = buildListQuery(params);
        return keysetParts(query).map((where) => {
          const { sql, params: values } = toSqlite(query, { where, limit: 20, offset: 0 });
          return explain(sql, values);
        });
      },
      count: (params: ListParams) => {
        const { countSql, countParams } = toSqlite(buildListQuery(params));
        return explain(countSql, countParams);
      },
      close: () => db.close(),
    };
  }

  it('has indexes that serve the filters and the sorts', async () => {
    const file = join(folder.dir, 'cds.sqlite');
    const store = openSqliteStore(file);
    await store.insert(newRecord(makeCdInput(), randomUUID(), new Date()));
    await store.close();
    const plan = plans(file);
    try {
      expect(plan.page({ artist: 'x' })).to.match(
        /USING (COVERING )?INDEX cds_list_artist_key_title_id_release_year/,
      );
      expect(plan.page({ genre: 'x' })).to.match(
        /USING (COVERING )?INDEX cds_list_genre_key_title_id_release_year/,
      );
      expect(plan.page({ before: 1990, sort: 'releaseYear' })).to.match(
        /USING (COVERING )?INDEX cds_list_release_year_title_id/,
      );
      expect(plan.page({ artist: 'x', sort: 'artist' })).to.match(
        /INDEX cds_list_artist_key_artist_title_id_release_year/,
      );
      expect(plan.page({})).to.match(/USING (COVERING )?INDEX cds_list_title_id_release_year/);
    } finally {
      plan.close();
    }
  });

  it('answers the first page of all CDs, of a genre or of an artist without reading the rest', async () => {
    const file = join(folder.dir, 'cds.sqlite');
    const store = openSqliteStore(file);
    // Enough CDs for the planner's statistics to matter (seeding analyzes the table).
    const records = Array.from({ length: 2000 }, (_, i) =>
      newRecord(
        makeCdInput({ artist: `Artist ${i % 100}`, genre: i % 4 ? `Genre ${i % 7}` : 'Rock' }),
        randomUUID(),
        new Date(),
      ),
    );
    expect(await store.seedOnce(records)).to.equal(2000);
    await store.close();
    const plan = plans(file);
    try {
      for (const params of [
        {},
        { genre: 'rock' },
        { artist: 'artist 1' },
        { fields: 'title' as const },
      ]) {
        const label = JSON.stringify(params);
        // In the order of an index, so that LIMIT stops the walk: no full scan, no sort.
        expect(plan.page({ ...params, limit: 20 }), label).to.match(
          /^(SCAN|SEARCH) cds USING (COVERING )?INDEX/,
        );
        expect(plan.page({ ...params, limit: 20 }), label).not.to.match(/TEMP B-TREE/);
        // The total is one row of the counts, whatever the size.
        expect(plan.count(params), label).to.match(
          /^SCAN CONSTANT ROW \| SCALAR SUBQUERY \d+ \| SEARCH counts USING PRIMARY KEY \(filter=\? AND key=\?\)$/,
        );
      }
      // Two filters: the index of both.
      expect(plan.page({ genre: 'rock', artist: 'artist 4' })).to.match(
        /INDEX cds_list_artist_key_genre_key_title_id_release_year \(artist_key=\? AND genre_key=\?\)/,
      );
      // Every combination of filters, with and without `before`, every sort either way, the
      // first page and each part of a page after a cursor: one walk of an index in the list's
      // order, stopped by the limit. No scan of the table, no sort.
      const id = randomUUID();
      for (const filters of [
        {},
        { genre: 'rock' },
        { artist: 'artist 1' },
        { artist: 'artist 1', genre: 'rock' },
      ]) {
        for (const before of [undefined, 1990]) {
          for (const sort of [
            'title',
            '-title',
            'artist',
            '-artist',
            'releaseYear',
            '-releaseYear',
          ]) {
            for (const fields of [undefined, 'title' as const]) {
              const params: ListParams = { ...filters, before, sort, fields, limit: 20 };
              const label = JSON.stringify(params);
              const key = orderFor(sort).map(({ field }) =>
                field === 'releaseYear' ? 1980 : field === 'id' ? id : 'M',
              );
              const cursor = encodeCursor(sort, key);
              for (const detail of [plan.page(params), ...plan.parts({ ...params, cursor })]) {
                expect(detail, label).to.match(
                  /^(SCAN|SEARCH) cds USING (COVERING )?INDEX cds_list_/,
                );
                expect(detail, label).not.to.match(/TEMP B-TREE/);
              }
            }
          }
        }
      }
    } finally {
      plan.close();
    }
  });

  it('refuses a record of another shape even past the service (NOT NULL)', async () => {
    const file = join(folder.dir, 'cds.sqlite');
    const store = openSqliteStore(file);
    const bad = newRecord(makeCdInput(), randomUUID(), new Date());
    bad.title = null as never;
    let failure: unknown;
    await store.insert(bad).catch((error) => {
      failure = error;
    });
    expect(String(failure)).to.match(/NOT NULL constraint failed: cds.title/);
    expect(await store.count()).to.equal(0);
    await store.close();
  });
});

describe('SQLite store: loading the sample collection', () => {
  const folder = folderEachTest();

  it('takes the records from a generator, builds the list indexes, and truncates the WAL', async () => {
    const { file } = folder;
    const store = openSqliteStore(file);
    let taken = 0;
    const records = function* () {
      for (let i = 0; i < 3000; i++) {
        taken += 1;
        yield newRecord(makeCdInput({ genre: `G${i % 3}` }), randomUUID(), new Date());
      }
    };
    expect(await store.seedOnce(records())).to.equal(3000);
    expect(taken).to.equal(3000);
    // The load went through the WAL; once it ends the WAL is empty (wal_checkpoint(TRUNCATE)).
    expect(statSync(`${file}-wal`).size).to.equal(0);
    expect(await store.count()).to.equal(3000);
    await store.close();
    const db = new Database(file, { readonly: true });
    try {
      const indexes = db
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND name LIKE 'cds_list_%'")
        .pluck()
        .all();
      expect(indexes).to.have.members(LIST_INDEXES.map((index) => index.name));
      expect(db.pragma('integrity_check', { simple: true })).to.equal('ok');
    } finally {
      db.close();
    }
  });

  it('counts what it loaded, raises the list version, and keeps counting and versioning after', async () => {
    const store = folder.openStore();
    const before = await store.listVersion();
    const records = Array.from({ length: 30 }, (_, i) =>
      newRecord(makeCdInput({ genre: `G${i % 3}`, artist: 'Loaded' }), randomUUID(), new Date()),
    );
    expect(await store.seedOnce(records)).to.equal(30);
    const loaded = await store.listVersion();
    expect(loaded).to.not.equal(before);
    const total = async (genre: string) => (await store.list(buildListQuery({ genre }))).total;
    expect(await total('g1')).to.equal(10);
    expect((await store.list(buildListQuery({ artist: 'loaded' }))).total).to.equal(30);
    await store.update(records[1]?.id as string, changesFor({ genre: 'G0' }, new Date()));
    expect([await total('g0'), await total('g1')]).to.deep.equal([11, 9]);
    expect(await store.listVersion()).to.not.equal(loaded);
  });

  it('caps what a checkpoint leaves of the WAL (journal_size_limit)', () => {
    const db = openCdDatabase(folder.file);
    try {
      expect(db.pragma('journal_size_limit', { simple: true })).to.equal(WAL_SIZE_LIMIT_BYTES);
      expect(WAL_SIZE_LIMIT_BYTES).to.be.below(64 * 1024 * 1024);
    } finally {
      db.close();
    }
  });

  it('cuts a WAL that a long read let grow back to journal_size_limit once writes go on', async () => {
    const { file } = folder;
    const store = folder.openStore();
    const walSize = () => statSync(`${file}-wal`).size;
    // A reader holding its snapshot keeps every checkpoint from restarting the WAL: it grows.
    const reader = new Database(file, { readonly: true });
    reader.prepare('BEGIN').run();
    reader.prepare('SELECT count(*) FROM cds').get();
    for (let i = 0; i < 5000 && walSize() <= WAL_SIZE_LIMIT_BYTES; i++) {
      await store.insert(makeRecord());
    }
    expect(walSize()).to.be.above(WAL_SIZE_LIMIT_BYTES);
    reader.prepare('COMMIT').run();
    reader.close();
    // The next commits checkpoint the whole WAL, restart it, and truncate it to the limit.
    for (let i = 0; i < 3; i++) await store.insert(makeRecord());
    expect(walSize()).to.be.at.most(WAL_SIZE_LIMIT_BYTES);
  });
});
