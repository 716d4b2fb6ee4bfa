import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { openSqliteStore } from '../../src/store/sqlite.js';
import { serverEachTest } from '../fixtures.js';
import { makeCdInput } from '../helpers.js';
import { json, refusedStart, stopServer } from './child.js';

/** Root may write any file: a read-only file is only read-only to another user. */
const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

describe('start-up refusals of the real server process', function () {
  this.timeout(60_000);
  const folder = serverEachTest();

  it('a database file that can be read but not written: exit 1 naming it', async () => {
    const store = openSqliteStore(folder.file);
    await store.close();
    const before = readFileSync(folder.file);
    chmodSync(folder.file, 0o444);
    // The folder is writable by anyone: only the file is read-only.
    chmodSync(folder.dir, 0o777);
    const { code, error } = await refusedStart({ CD_DB_PATH: folder.file }, asUser);
    expect(code).to.equal(1);
    expect(error).to.equal(
      `${folder.file}: the database file can be read but not written (its permissions or its file system); every write would fail`,
    );
    expect(readFileSync(folder.file).equals(before)).to.equal(true);
  });

  it('a cds table of another shape: exit 1 before changing anything, no WAL', async () => {
    const db = new Database(folder.file);
    db.exec(
      "CREATE TABLE cds (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO cds (name) VALUES ('x')",
    );
    db.close();
    const before = readFileSync(folder.file);
    const { code, error } = await refusedStart({ CD_DB_PATH: folder.file });
    expect(code).to.equal(1);
    expect(error).to.include(`${folder.file} is not a cd-service database`);
    expect(readFileSync(folder.file).equals(before)).to.equal(true);
    expect(readdirSync(folder.dir)).to.deep.equal(['cds.sqlite']);
  });

  it('CD_DB_PATH in a folder that does not exist: exit 1 naming it, nothing created', async () => {
    const missing = join(folder.dir, 'volume', 'cds.sqlite');
    const { code, error } = await refusedStart({ CD_DB_PATH: missing });
    expect(code).to.equal(1);
    expect(error).to.include(`the folder ${join(folder.dir, 'volume')} does not exist`);
    expect(existsSync(join(folder.dir, 'volume'))).to.equal(false);
  });

  it('a file that is not a database: exit 1 naming it', async () => {
    writeFileSync(folder.file, 'this is not an SQLite database, '.repeat(50));
    const { code, error } = await refusedStart({ CD_DB_PATH: folder.file });
    expect(code).to.equal(1);
    expect(error).to.equal(`${folder.file}: file is not a database`);
  });

  it('a broken CD_SEED_FILE for an empty store: exit 1 naming the seed file', async () => {
    const seed = join(folder.dir, 'seed.json');
    writeFileSync(seed, '[{"title": "cut short"');
    const { code, error } = await refusedStart({ CD_DB_PATH: folder.file, CD_SEED_FILE: seed });
    expect(code).to.equal(1);
    expect(error).to.match(new RegExp(`^${seed}: cannot read the CDs: .*JSON`));
  });

  it('a broken CD_SEED_FILE does not stop a store that holds CDs: it is not read', async () => {
    const first = await folder.start({ CD_SEED: 'false' });
    const created = (await json(`${first.url}/cds`, 'POST', makeCdInput())).body;
    expect(await stopServer(first)).to.equal(0);

    const seed = join(folder.dir, 'seed.json');
    writeFileSync(seed, 'not json');
    const second = await folder.start({ CD_SEED: 'true', CD_SEED_FILE: seed });
    expect((await json(`${second.url}/cds`)).body).to.deep.equal([created]);
    expect(second.logs.some((line) => line.level === 'error')).to.equal(false);
  });

  it('a CD_API_TOKEN no Authorization header can carry: exit 1 saying why, not the token', async () => {
    for (const token of ['   ', 'my token', 'tab\there', 'esc\u001bape']) {
      const { code, error, logs } = await refusedStart({
        CD_DB_PATH: folder.file,
        CD_API_TOKEN: token,
      });
      expect(code, JSON.stringify(token)).to.equal(1);
      expect(error).to.match(
        /^CD_API_TOKEN (is only whitespace|contains whitespace|contains a control character): no Authorization header could carry it/,
      );
      expect(JSON.stringify(logs)).not.to.include(JSON.stringify(token).slice(1, -1));
    }
  });
});
