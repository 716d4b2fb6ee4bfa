import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { VersionMismatch } from '../../src/cd/errors.js';
import { changesFor, newRecord } from '../../src/cd/records.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import {
  column,
  MIGRATIONS,
  RECORD_PROPERTIES,
  SCHEMA_VERSION,
} from '../../src/store/sqlite-schema.js';
import { folderEachTest } from '../fixtures.js';
import { makeCdInput } from '../helpers.js';
import { VERSION_0_SCHEMA } from './earlier-schemas.js';

const T0 = new Date('2024-01-02T03:04:05.678Z');

describe('SQLite store: CD versions in a database of before them', () => {
  const folder = folderEachTest();

  /** A database as cd-service wrote it at schema version 1: its CDs have no version column. */
  function versionOneDatabase(count: number): string[] {
    const db = new Database(folder.file);
    db.exec(VERSION_0_SCHEMA);
    db.exec(MIGRATIONS[0] as string);
    db.pragma('user_version = 1');
    const columns = RECORD_PROPERTIES.map(column);
    const insert = db.prepare(
      `INSERT INTO cds (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    );
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const record = newRecord(makeCdInput({ title: `Old ${i}` }), randomUUID(), T0);
      insert.run(RECORD_PROPERTIES.map((name) => record[name]));
      ids.push(record.id);
    }
    const names = (db.pragma('table_info(cds)') as { name: string }[]).map((c) => c.name);
    expect(names).to.deep.equal(columns);
    db.close();
    return ids;
  }

  it('migrates it once at start: every CD at version 1, then kept and checked by writes', async () => {
    const ids = versionOneDatabase(3);
    const store = openSqliteStore(folder.file);
    try {
      for (const id of ids) expect((await store.get(id))?.version).to.equal(1);
      const [first, second] = ids as [string, string];
      expect(
        (await store.update(first, changesFor({ title: 'New' }, T0), { in: [1] }))?.version,
      ).to.equal(2);
      const refused = await store
        .update(first, changesFor({ title: 'Lost' }, T0), { in: [1] })
        .catch((error: unknown) => error);
      expect(refused).to.be.an.instanceOf(VersionMismatch);
      expect(await store.delete(second, { in: [1] })).to.equal(true);
      const created = await store.insert(newRecord(makeCdInput(), randomUUID(), T0));
      expect(created.version).to.equal(1);
    } finally {
      await store.close();
    }
    const check = new Database(folder.file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).to.equal(SCHEMA_VERSION);
    const versions = check.prepare('SELECT title, version FROM cds ORDER BY title').all();
    check.close();
    expect(versions).to.deep.include.members([
      { title: 'New', version: 2 },
      { title: 'Old 2', version: 1 },
    ]);
    // Opened again, the migrated file is used as it is.
    const again = openSqliteStore(folder.file);
    expect((await again.get(ids[0] as string))?.version).to.equal(2);
    await again.close();
  });
});

describe('SQLite store: a table made with the rules restated as CHECKs', () => {
  const folder = folderEachTest();

  const tableSql = () => {
    const db = new Database(folder.file, { readonly: true });
    const sql = db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'cds'").pluck().get();
    db.close();
    return String(sql);
  };

  it('a new database holds the shape only: types and NOT NULL, no text or year CHECKs', async () => {
    await openSqliteStore(folder.file).close();
    expect(tableSql()).to.include('title TEXT NOT NULL,');
    expect(tableSql()).to.include('release_year INTEGER NOT NULL,');
    expect(tableSql()).not.to.match(/length\(|release_year >=/);
  });

  it('a database of the current version made with them opens as it is, its CDs kept, and takes writes', async () => {
    const db = new Database(folder.file);
    db.exec(VERSION_0_SCHEMA);
    for (const step of MIGRATIONS) db.exec(step);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
    const columns = RECORD_PROPERTIES.map(column);
    const old = newRecord(makeCdInput({ title: 'Kept' }), randomUUID(), T0);
    db.prepare(
      `INSERT INTO cds (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    ).run(RECORD_PROPERTIES.map((name) => old[name]));
    db.close();
    const made = tableSql();
    expect(made).to.include('CHECK (length(title) BETWEEN 1 AND 200)');

    const store = openSqliteStore(folder.file);
    try {
      expect((await store.get(old.id))?.cd.title).to.equal('Kept');
      const created = await store.insert(
        newRecord(makeCdInput({ title: 'x'.repeat(200) }), randomUUID(), T0),
      );
      expect(created.version).to.equal(1);
      const changed = await store.update(old.id, changesFor({ genre: 'Jazz' }, T0), { in: [1] });
      expect(changed?.cd.genre).to.equal('Jazz');
      expect(await store.delete(created.cd.id, { in: [1] })).to.equal(true);
      expect(await store.count()).to.equal(1);
    } finally {
      await store.close();
    }
    // Used as it is: no rebuild, no step run.
    expect(tableSql()).to.equal(made);
  });
});
