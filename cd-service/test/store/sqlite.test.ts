import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { buildListQuery } from '../../src/cd/query.js';
import { newRecord } from '../../src/cd/records.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import { toSqlite } from '../../src/store/sqlite-schema.js';
import { makeCdInput, tempDir } from '../helpers.js';
import { sqliteFactory } from '../stores.js';
import { describeStoreContract } from './contract.js';

describeStoreContract(sqliteFactory);

describe('SQLite store: the file', () => {
  let folder: ReturnType<typeof tempDir>;
  beforeEach(() => {
    folder = tempDir();
  });
  afterEach(() => folder.remove());

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
      expect(tables).to.include.members(['cds', 'meta']);
    } finally {
      db.close();
    }
    const reopened = openSqliteStore(file);
    await reopened.close();
  });

  it('has indexes that serve the filters and the sorts', async () => {
    const file = join(folder.dir, 'cds.sqlite');
    const store = openSqliteStore(file);
    await store.insert(newRecord(makeCdInput(), randomUUID(), new Date()));
    await store.close();
    const db = new Database(file, { readonly: true });
    try {
      const plan = (params: Parameters<typeof buildListQuery>[0]) => {
        const { sql, params: values } = toSqlite(buildListQuery(params));
        return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(values) as { detail: string }[])
          .map((row) => row.detail)
          .join(' | ');
      };
      expect(plan({ artist: 'x' })).to.match(/USING (COVERING )?INDEX cds_artist_key_title_id/);
      expect(plan({ genre: 'x' })).to.match(/USING (COVERING )?INDEX cds_genre_key_title_id/);
      expect(plan({ before: 1990, sort: 'releaseYear' })).to.match(
        /USING (COVERING )?INDEX cds_release_year_title_id/,
      );
      expect(plan({ artist: 'x', sort: 'artist' })).to.match(/INDEX cds_artist_key_title_id/);
      expect(plan({})).to.match(/USING (COVERING )?INDEX cds_title_id/);
      expect(plan({})).not.to.match(/TEMP B-TREE/);
      expect(plan({ artist: 'x' })).not.to.match(/TEMP B-TREE/);
    } finally {
      db.close();
    }
  });

  it('refuses what breaks the schema even past the service (CHECK constraints)', async () => {
    const file = join(folder.dir, 'cds.sqlite');
    const store = openSqliteStore(file);
    const bad = newRecord(makeCdInput(), randomUUID(), new Date());
    bad.title = '';
    let failure: unknown;
    await store.insert(bad).catch((error) => {
      failure = error;
    });
    expect(String(failure)).to.match(/CHECK constraint failed/);
    expect(await store.count()).to.equal(0);
    await store.close();
  });
});
