import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { openSqliteStore } from '../../src/store/sqlite.js';
import { SCHEMA_VERSION } from '../../src/store/sqlite-schema.js';
import { folderEachTest } from '../fixtures.js';
import { skip } from '../skip.js';

/** The message openSqliteStore throws for `file`. */
function refusal(file: string): string {
  try {
    const store = openSqliteStore(file);
    void store.close();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${file} was opened`);
}

/** A database of another application, in the default (rollback journal) mode. */
function foreignDatabase(file: string, sql: string): Buffer {
  const db = new Database(file);
  db.exec(sql);
  db.close();
  return readFileSync(file);
}

/** Root may write any file: the permission checks can only be seen as another user. */
const isRoot = process.getuid?.() === 0;

describe('SQLite store: what it refuses to open', () => {
  const folder = folderEachTest();
  beforeEach(() => {
    // A test may take the folder's permissions away; they come back before it is removed.
    folder.closeAfter(() => chmodSync(folder.dir, 0o700));
  });

  it('a file in a folder that does not exist: names the folder, creates nothing', () => {
    const missing = join(folder.dir, 'typo', 'cds.sqlite');
    const message = refusal(missing);
    expect(message).to.include(missing);
    expect(message).to.include(`the folder ${join(folder.dir, 'typo')} does not exist`);
    expect(readdirSync(folder.dir)).to.deep.equal([]);
  });

  it('a file that is not a database: names the file, leaves it as it was', () => {
    const file = join(folder.dir, 'cds.sqlite');
    const text = Buffer.from('not a database at all, '.repeat(100));
    writeFileSync(file, text);
    expect(refusal(file)).to.equal(`${file}: file is not a database`);
    expect(readFileSync(file).equals(text)).to.equal(true);
    expect(readdirSync(folder.dir)).to.deep.equal(['cds.sqlite']);
  });

  it('a table cds of another shape: names the file and the columns, changes nothing (no WAL)', () => {
    const file = join(folder.dir, 'other.sqlite');
    const before = foreignDatabase(
      file,
      "CREATE TABLE cds (id INTEGER PRIMARY KEY, name TEXT, price REAL); INSERT INTO cds (name) VALUES ('x')",
    );
    const message = refusal(file);
    expect(message).to.include(`${file} is not a cd-service database`);
    expect(message).to.include('its table cds has the columns id, name, price');
    expect(readFileSync(file).equals(before)).to.equal(true);
    expect(readdirSync(folder.dir)).to.deep.equal(['other.sqlite']);
    const db = new Database(file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).to.equal('delete');
    db.close();
  });

  it('a database with tables of another application: changes nothing', () => {
    const file = join(folder.dir, 'app.sqlite');
    const before = foreignDatabase(file, 'CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT)');
    expect(refusal(file)).to.include('it holds the tables users');
    expect(readFileSync(file).equals(before)).to.equal(true);
    expect(readdirSync(folder.dir)).to.deep.equal(['app.sqlite']);
  });

  it('a cds table that lacks columns (an older shape): refused, not patched', () => {
    const file = join(folder.dir, 'cds.sqlite');
    const before = foreignDatabase(
      file,
      'CREATE TABLE cds (id TEXT PRIMARY KEY, title TEXT, artist TEXT, genre TEXT, release_year INTEGER)',
    );
    expect(refusal(file)).to.include(
      'its table cds has the columns id, title, artist, genre, release_year, not id, title, artist, genre, release_year, artist_key, genre_key, created_at, updated_at',
    );
    expect(readFileSync(file).equals(before)).to.equal(true);
  });

  it('an empty file: a new database', async () => {
    const file = join(folder.dir, 'cds.sqlite');
    writeFileSync(file, '');
    const store = openSqliteStore(file);
    expect(await store.count()).to.equal(0);
    await store.close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).to.equal(SCHEMA_VERSION);
    db.close();
  });

  it('a database of a newer schema version: names the file and both versions, changes nothing', async () => {
    const file = join(folder.dir, 'cds.sqlite');
    await openSqliteStore(file).close();
    const db = new Database(file);
    db.pragma('journal_mode = DELETE');
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const before = readFileSync(file);
    expect(refusal(file)).to.equal(
      `${file} has the schema version ${SCHEMA_VERSION + 1}, newer than this cd-service's (${SCHEMA_VERSION}); refusing to use or change it`,
    );
    expect(readFileSync(file).equals(before)).to.equal(true);
    // The lock file of the first start stays; no -wal or -shm file is made.
    expect(readdirSync(folder.dir)).to.deep.equal(['cds.sqlite', 'cds.sqlite.lock']);
  });

  it('a file that can be read but not written, or a folder that cannot be written', function () {
    if (isRoot) {
      skip(
        this,
        'as root every file is writable; test/process/startup.test.ts runs it as another user',
      );
    }
    const file = join(folder.dir, 'cds.sqlite');
    void openSqliteStore(file).close();
    const before = readFileSync(file);
    chmodSync(file, 0o444);
    expect(refusal(file)).to.equal(
      `${file}: the database file can be read but not written (its permissions or its file system); every write would fail`,
    );
    expect(readFileSync(file).equals(before)).to.equal(true);
    chmodSync(file, 0o644);
    chmodSync(folder.dir, 0o500);
    expect(refusal(file)).to.include(`the folder ${folder.dir} is not writable`);
    expect(existsSync(`${file}-wal`)).to.equal(false);
  });
});
