import {
  closeSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Cd } from '../../src/cd/schema.js';
import { serverEachTest } from '../fixtures.js';
import { makeCdInput } from '../helpers.js';
import { json, refusedStart, stopServer } from './child.js';

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the real server process and its SQLite file', function () {
  this.timeout(60_000);
  const folder = serverEachTest({ CD_SEED: 'false' });
  const start = folder.start;

  it('a second process on a file in use exits 1 with one line naming the file and the holder, changing nothing; a killed holder does not block a restart', async () => {
    const first = await start();
    const kept: Cd = (await json(`${first.url}/cds`, 'POST', makeCdInput())).body;
    const files = readdirSync(folder.dir).sort();
    const lock = readFileSync(`${folder.file}.lock`, 'utf8');

    const { code, error, logs } = await refusedStart({ CD_DB_PATH: folder.file, CD_SEED: 'true' });
    expect(code).to.equal(1);
    expect(error).to.match(
      new RegExp(
        `^${literally(folder.file)} is in use by another process \\(pid ${first.child.pid} on host ${literally(hostname())}, since [0-9T:.-]+Z\\): one SQLite file serves one cd-service; stop that process first, or give this one another CD_DB_PATH$`,
      ),
    );
    expect(logs.filter((line) => line.level === 'error')).to.have.length(1);
    expect(readdirSync(folder.dir).sort()).to.deep.equal(files);
    expect(readFileSync(`${folder.file}.lock`, 'utf8')).to.equal(lock);
    // The first one goes on, and sees every write.
    const second: Cd = (await json(`${first.url}/cds`, 'POST', makeCdInput({ artist: 'Q' }))).body;
    expect((await json(`${first.url}/cds?artist=Q`)).body).to.deep.equal([second]);

    // Killed, it holds nothing: the next start takes the file at once.
    first.child.kill('SIGKILL');
    await first.exited;
    const restarted = await start();
    expect((await json(`${restarted.url}/cds/${kept.id}`)).body).to.deep.equal(kept);
    expect(JSON.parse(readFileSync(`${folder.file}.lock`, 'utf8'))).to.include({
      pid: restarted.child.pid,
    });
  });

  it('a file moved away while running: 503 for every write, /healthz and /readyz 503, the log says why; none of them is found after a restart', async () => {
    const server = await start();
    const kept: Cd = (await json(`${server.url}/cds`, 'POST', makeCdInput())).body;
    renameSync(folder.file, `${folder.file}.moved`);
    const writes = await Promise.all(
      Array.from({ length: 20 }, () => json(`${server.url}/cds`, 'POST', makeCdInput())),
    );
    expect(writes.map((res) => res.status)).to.deep.equal(Array(20).fill(503));
    expect(writes.every((res) => res.headers.get('retry-after') === '5')).to.equal(true);
    expect((await json(`${server.url}/healthz`)).status).to.equal(503);
    expect((await json(`${server.url}/readyz`)).status).to.equal(503);
    // Counted once the process has ended: only then has every line it wrote been read.
    expect(await stopServer(server)).to.equal(0);
    const said = server.logs.filter(
      (line) => (line.err as { code?: string } | undefined)?.code === 'DATABASE_FILE_GONE',
    );
    expect(said.length).to.be.at.least(21);
    expect(JSON.stringify(said[0])).to.include(
      `${folder.file} was deleted, moved or replaced while in use`,
    );

    renameSync(`${folder.file}.moved`, folder.file);
    const restarted = await start();
    const all = (await json(`${restarted.url}/cds`)).body as Cd[];
    expect(all).to.deep.equal([kept]);
  });

  it('a deleted file: 503 for every write, and /healthz 503', async () => {
    const server = await start();
    rmSync(folder.file);
    expect((await json(`${server.url}/cds`, 'POST', makeCdInput())).status).to.equal(503);
    expect((await json(`${server.url}/healthz`)).body).to.deep.equal({
      status: 'unavailable',
      store: 'sqlite',
      writes: 'failing',
    });
  });

  describe('a bad CD_SEED_FILE for a new database: exit 1, nothing left behind', () => {
    const cases: [string, string | undefined, RegExp][] = [
      ['malformed JSON', '[{"title": "cut short"', /: cannot read the CDs: .*JSON/],
      ['an object', '{"title": "Blue"}', /: invalid CDs: the file must hold a JSON array of CDs$/],
      [
        'entries of the wrong schema',
        JSON.stringify(
          [
            { title: 'Blue', artist: 'Joni Mitchell', genre: 'Folk', releaseYear: 1500 },
            { title: '\u200b', artist: 'x', genre: 'y', releaseYear: 2000, label: 'z' },
          ],
          null,
          2,
        ),
        /: invalid CDs: CD 0 \("Blue"\): field "releaseYear" must be .*; CD 1 \("\u200b"\): field "(title|label)" .*; CD 1 \("\u200b"\): field "(title|label)" /,
      ],
      ['a missing file', undefined, /: cannot read the CDs: ENOENT/],
    ];
    for (const [what, text, expected] of cases) {
      it(what, async () => {
        const seed = join(folder.dir, 'seed.json');
        if (text !== undefined) writeFileSync(seed, text);
        const { code, error } = await refusedStart({
          CD_DB_PATH: folder.file,
          CD_SEED: 'true',
          CD_SEED_FILE: seed,
        });
        expect(code).to.equal(1);
        expect(error.startsWith(`${seed}: `), error).to.equal(true);
        expect(error).to.match(expected);
        expect(error).not.to.match(/\n/);
        expect(readdirSync(folder.dir)).to.deep.equal(text === undefined ? [] : ['seed.json']);
      });
    }

    it('an empty (zero-byte) file at CD_DB_PATH is a new database: left as it was by a bad seed', async () => {
      writeFileSync(folder.file, '');
      const seed = join(folder.dir, 'seed.json');
      writeFileSync(seed, '{}');
      expect(
        (await refusedStart({ CD_DB_PATH: folder.file, CD_SEED: 'true', CD_SEED_FILE: seed })).code,
      ).to.equal(1);
      expect(readdirSync(folder.dir).sort()).to.deep.equal(['cds.sqlite', 'seed.json']);
      expect(readFileSync(folder.file).length).to.equal(0);
    });
  });

  it('an empty (zero-byte) file at CD_DB_PATH is taken as a new database, and gets the sample', async () => {
    writeFileSync(folder.file, '');
    const server = await start({ CD_SEED: 'true' });
    const listening = server.logs.find((line) => line.message === 'cd-service listening');
    expect(Number(listening?.cds)).to.be.greaterThan(40);
    expect(server.logs.some((line) => line.message === 'loaded the sample collection')).to.equal(
      true,
    );
  });

  it('a damaged database file: exit 1 naming the file and SQLite\'s reason, not "try again later"', async () => {
    const first = await start({ CD_SEED: 'true' });
    expect(await stopServer(first)).to.equal(0);
    // Bytes overwritten in the first page of the table of CDs, after the file's header.
    const fd = openSync(folder.file, 'r+');
    writeSync(fd, Buffer.alloc(64, 0xa5), 0, 64, 4096);
    closeSync(fd);
    const { code, error } = await refusedStart({ CD_DB_PATH: folder.file });
    expect(code).to.equal(1);
    expect(error).to.equal(`${folder.file}: database disk image is malformed`);
    expect(error).not.to.match(/try again/);
  });
});
