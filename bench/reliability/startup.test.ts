import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { refusedStart, repoRoot, startService } from '../src/process.js';

const folders: string[] = [];

/** A new folder for one test's files, writable by anyone (a test may run the service as another user). */
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'startup-reliability-'));
  chmodSync(dir, 0o777);
  folders.push(dir);
  return dir;
}

/** cd-service's better-sqlite3, to make databases of other shapes. */
function sqlite(file: string) {
  const require = createRequire(join(repoRoot, 'cd-service', 'package.json'));
  const Database = require('better-sqlite3');
  return new Database(file) as {
    exec(sql: string): void;
    close(): void;
    pragma(sql: string, o?: { simple: boolean }): unknown;
  };
}

/** Root may write any file: the read-only database is read-only to another user only. */
const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

describe('start-up refusals of the compiled services', function () {
  this.timeout(120_000);
  after(() => {
    for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  for (const name of ['games-service', 'travel-service', 'cd-service'] as const) {
    it(`${name}: PORT must be a decimal integer from 0 to 65535`, async () => {
      for (const port of ['', '0x10', '4.5e4', '65536', '-1', ' 80', '80 ', '1_000', 'abc']) {
        const { code, error } = await refusedStart(name, {
          PORT: port,
          CD_DB_PATH: join(folder(), 'cds.sqlite'),
        });
        expect(code, JSON.stringify(port)).to.equal(1);
        expect(error).to.equal(
          `PORT must be a whole number from 0 to 65535, not ${JSON.stringify(port)}`,
        );
      }
    });
  }

  it('cd-service: a database file that can be read but not written', async () => {
    const file = join(folder(), 'cds.sqlite');
    const db = sqlite(file);
    db.exec('PRAGMA user_version = 0');
    db.close();
    const service = await startService('cd-service', { CD_DB_PATH: file, CD_SEED: 'false' });
    await service.stop();
    chmodSync(file, 0o444);
    const before = readFileSync(file);
    const { code, error } = await refusedStart('cd-service', { CD_DB_PATH: file }, asUser);
    expect(code).to.equal(1);
    expect(error).to.equal(
      `${file}: the database file can be read but not written (its permissions or its file system); every write would fail`,
    );
    expect(readFileSync(file).equals(before)).to.equal(true);
  });

  it('cd-service: a cds table of another shape is refused before anything changes: no WAL', async () => {
    const dir = folder();
    const file = join(dir, 'other-app.sqlite');
    const db = sqlite(file);
    db.exec(
      "CREATE TABLE cds (id INTEGER PRIMARY KEY, label TEXT, price REAL); INSERT INTO cds (label, price) VALUES ('x', 1.5)",
    );
    db.close();
    const before = readFileSync(file);
    const { code, error } = await refusedStart('cd-service', { CD_DB_PATH: file });
    expect(code).to.equal(1);
    expect(error).to.include(`${file} is not a cd-service database`);
    expect(readFileSync(file).equals(before)).to.equal(true);
    expect(readdirSync(dir)).to.deep.equal(['other-app.sqlite']);
    expect(before.readUInt8(18), 'the file format byte of WAL (2) was not set').to.equal(1);
  });

  it('cd-service: CD_DB_PATH in a folder that does not exist', async () => {
    const dir = folder();
    const missing = join(dir, 'not-mounted', 'cds.sqlite');
    const { code, error } = await refusedStart('cd-service', { CD_DB_PATH: missing });
    expect(code).to.equal(1);
    expect(error).to.include(`the folder ${dirname(missing)} does not exist`);
    expect(existsSync(dirname(missing))).to.equal(false);
  });

  it('cd-service: a corrupt store file and a broken seed file are named', async () => {
    const dir = folder();
    const file = join(dir, 'cds.sqlite');
    writeFileSync(file, Buffer.alloc(8192, 0xab));
    const corrupt = await refusedStart('cd-service', { CD_DB_PATH: file });
    expect(corrupt.code).to.equal(1);
    expect(corrupt.error).to.equal(`${file}: file is not a database`);

    const seed = join(dir, 'seed.json');
    writeFileSync(seed, '[{"title": "Blue", "artist": "Joni');
    const fresh = join(dir, 'fresh.sqlite');
    const broken = await refusedStart('cd-service', { CD_DB_PATH: fresh, CD_SEED_FILE: seed });
    expect(broken.code).to.equal(1);
    expect(broken.error).to.match(new RegExp(`^${seed}: cannot read the CDs: .*JSON`));
  });

  it('cd-service: a broken seed file does not stop a store that holds CDs', async () => {
    const dir = folder();
    const file = join(dir, 'cds.sqlite');
    const seeded = await startService('cd-service', { CD_DB_PATH: file, CD_SEED: 'true' });
    const count = (await fetch(`${seeded.url}/cds?limit=1`)).headers.get('x-total-count');
    await seeded.stop();
    const seed = join(dir, 'seed.json');
    writeFileSync(seed, '{not json');
    const again = await startService('cd-service', {
      CD_DB_PATH: file,
      CD_SEED: 'true',
      CD_SEED_FILE: seed,
    });
    try {
      expect((await fetch(`${again.url}/cds?limit=1`)).headers.get('x-total-count')).to.equal(
        count,
      );
    } finally {
      await again.stop();
    }
  });

  it('cd-service: a CD_API_TOKEN no Authorization header can carry', async () => {
    for (const token of [' ', '  \t ', 'two words', ' padded', 'ctrl\u0007char', 'caf\u00e9']) {
      const { code, error, output } = await refusedStart('cd-service', {
        CD_DB_PATH: join(folder(), 'cds.sqlite'),
        CD_API_TOKEN: token,
      });
      expect(code, JSON.stringify(token)).to.equal(1);
      expect(error).to.match(
        /^CD_API_TOKEN (is only whitespace|contains whitespace|contains a control character|contains a character outside visible ASCII): no Authorization header could carry it/,
      );
      if (token.trim().length > 3) expect(output).not.to.include(token.trim());
    }
  });
});
