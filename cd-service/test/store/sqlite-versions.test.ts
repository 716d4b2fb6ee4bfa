import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { changesFor, newRecord } from '../../src/cd/records.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import {
  column,
  MIGRATIONS,
  RECORD_PROPERTIES,
  SCHEMA_VERSION,
} from '../../src/store/sqlite-schema.js';
import { VersionMismatch } from '../../src/store/store.js';
import { makeCdInput, tempDir } from '../helpers.js';

const T0 = new Date('2024-01-02T03:04:05.678Z');

describe('SQLite store: CD versions in a database of before them', () => {
  let folder: ReturnType<typeof tempDir>;
  let file: string;
  beforeEach(() => {
    folder = tempDir();
    file = join(folder.dir, 'cds.sqlite');
  });
  afterEach(() => folder.remove());

  /** A database as cd-service wrote it at schema version 1: its CDs have no version column. */
  function versionOneDatabase(count: number): string[] {
    const db = new Database(file);
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
    const store = openSqliteStore(file);
    try {
      for (const id of ids) expect((await store.get(id))?.version).to.equal(1);
      const [first, second] = ids as [string, string];
      expect((await store.update(first, changesFor({ title: 'New' }, T0), [1]))?.version).to.equal(
        2,
      );
      const refused = await store
        .update(first, changesFor({ title: 'Lost' }, T0), [1])
        .catch((error: unknown) => error);
      expect(refused).to.be.an.instanceOf(VersionMismatch);
      expect(await store.delete(second, [1])).to.equal(true);
      const created = await store.insert(newRecord(makeCdInput(), randomUUID(), T0));
      expect(created.version).to.equal(1);
    } finally {
      await store.close();
    }
    const check = new Database(file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).to.equal(SCHEMA_VERSION);
    const versions = check.prepare('SELECT title, version FROM cds ORDER BY title').all();
    check.close();
    expect(versions).to.deep.include.members([
      { title: 'New', version: 2 },
      { title: 'Old 2', version: 1 },
    ]);
    // Opened again, the migrated file is used as it is.
    const again = openSqliteStore(file);
    expect((await again.get(ids[0] as string))?.version).to.equal(2);
    await again.close();
  });
});
