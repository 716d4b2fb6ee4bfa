import {
  copyFileSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { expect } from 'chai';
import { StoreUnavailable } from '../../src/cd/errors.js';
import { FileInUse } from '../../src/store/file-lock.js';
import {
  DatabaseFileGone,
  openCdDatabase,
  openSqliteStore,
  SqliteUnavailable,
  sqliteStore,
  WRITE_UNAVAILABLE,
} from '../../src/store/sqlite.js';
import type { CdStore } from '../../src/store/store.js';
import { folderEachTest } from '../fixtures.js';
import { makeRecord, rejection } from '../helpers.js';

/** The store unavailable, its cause saying that the file is gone, and what the path holds now. */
function expectFileGone(error: unknown, file: string, now: RegExp) {
  expect(error).to.be.instanceOf(SqliteUnavailable).and.instanceOf(StoreUnavailable);
  const failure = error as SqliteUnavailable;
  expect(failure.message).to.equal(WRITE_UNAVAILABLE);
  expect(failure.code).to.equal('DATABASE_FILE_GONE');
  expect(failure.cause).to.be.instanceOf(DatabaseFileGone);
  const message = (failure.cause as Error).message;
  expect(message).to.include(`${file} was deleted, moved or replaced while in use`);
  expect(message).to.match(now);
}

describe('SQLite store: one file, one process', () => {
  const folder = folderEachTest();

  it('refuses a file already in use, naming it and the holder (pid and host), changing nothing', async () => {
    const first = folder.openStore();
    await first.insert(makeRecord());
    const files = readdirSync(folder.dir).sort();
    const bytes = readFileSync(folder.file);
    const error = (() => {
      try {
        folder.openStore();
      } catch (caught) {
        return caught as Error;
      }
      throw new Error('a second store opened the file');
    })();
    expect(error).to.be.instanceOf(FileInUse);
    expect(error.message).to.match(
      new RegExp(
        `^${folder.file} is in use by another process \\(pid ${process.pid} on host ${hostname()}, since [0-9T:.-]+Z\\): one SQLite file serves one cd-service; stop that process first, or give this one another CD_DB_PATH$`,
      ),
    );
    expect(error.message).not.to.match(/\n/);
    expect(readdirSync(folder.dir).sort()).to.deep.equal(files);
    expect(readFileSync(folder.file).equals(bytes)).to.equal(true);
    expect(await first.count()).to.equal(1);
    await first.insert(makeRecord());
    expect(await first.count()).to.equal(2);
  });

  it('gives the lock up on close: the file opens again', async () => {
    const first = openSqliteStore(folder.file);
    await first.insert(makeRecord());
    await first.close();
    const again = folder.openStore();
    expect(await again.count()).to.equal(1);
  });

  it('is not stopped by a lock file a dead process left, whatever it holds', async () => {
    for (const left of ['{"pid":999999,"host":"gone","since":"2020-01-01T00:00:00.000Z"}\n', 'x']) {
      writeFileSync(`${folder.file}.lock`, left);
      const store = openSqliteStore(folder.file);
      expect(await store.count()).to.equal(0);
      expect(JSON.parse(readFileSync(`${folder.file}.lock`, 'utf8'))).to.include({
        pid: process.pid,
        host: hostname(),
      });
      await store.close();
    }
  });

  it('a start refused for another reason leaves no lock file of its own behind', () => {
    writeFileSync(folder.file, 'not a database, '.repeat(100));
    expect(() => openSqliteStore(folder.file)).to.throw(`${folder.file}: file is not a database`);
    expect(readdirSync(folder.dir)).to.deep.equal(['cds.sqlite']);
  });
});

describe('SQLite store: a file deleted, moved or replaced while in use', () => {
  const folder = folderEachTest();
  let store: CdStore;
  beforeEach(() => {
    store = openSqliteStore(folder.file);
    folder.closeAfter(() => store.close());
  });

  it('deleted: every write and the ping fail with a 503 saying so; reads are served', async () => {
    const { cd: kept } = await store.insert(makeRecord());
    rmSync(folder.file);
    for (const write of [
      () => store.insert(makeRecord()),
      () => store.update(kept.id, { title: 'Renamed', updatedAt: new Date().toISOString() }),
      () => store.delete(kept.id),
      () => store.ping(),
    ]) {
      expectFileGone(await rejection(write()), folder.file, /nothing is there now/);
    }
    expect((await store.get(kept.id))?.cd).to.deep.equal(kept);
    expect(await store.count()).to.equal(1);
  });

  it('moved: refused while away, accepted again once put back', async () => {
    await store.insert(makeRecord());
    renameSync(folder.file, `${folder.file}.moved`);
    const writes = await Promise.allSettled(
      Array.from({ length: 20 }, () => store.insert(makeRecord())),
    );
    for (const write of writes) {
      expect(write.status).to.equal('rejected');
      expectFileGone((write as PromiseRejectedResult).reason, folder.file, /nothing is there now/);
    }
    renameSync(`${folder.file}.moved`, folder.file);
    await store.ping();
    await store.insert(makeRecord());
    expect(await store.count()).to.equal(2);
  });

  it('replaced by another file (a copy, a new database): refused', async () => {
    await store.insert(makeRecord());
    copyFileSync(folder.file, `${folder.file}.copy`);
    renameSync(`${folder.file}.copy`, folder.file);
    expectFileGone(
      await rejection(store.insert(makeRecord())),
      folder.file,
      /another file \(inode \d+\)/,
    );
    expectFileGone(await rejection(store.ping()), folder.file, /another file/);
  });

  it('gone during the commit: the writes of that batch are not acknowledged', async () => {
    // A store on its own connection whose insert deletes the file while it is being written:
    // after the check that precedes the commit, before the one that follows it.
    await store.close();
    const db = openCdDatabase(folder.file);
    const opened = statSync(folder.file, { bigint: true });
    db.function('delete_the_file', () => {
      rmSync(folder.file, { force: true });
      return null;
    });
    db.exec(
      'CREATE TEMP TRIGGER delete_the_file AFTER INSERT ON main.cds BEGIN SELECT delete_the_file(); END',
    );
    store = sqliteStore(db, { file: folder.file, opened });
    const outcomes = await Promise.allSettled([
      store.insert(makeRecord()),
      store.insert(makeRecord()),
    ]);
    for (const outcome of outcomes) {
      expect(outcome.status).to.equal('rejected');
      expectFileGone(
        (outcome as PromiseRejectedResult).reason,
        folder.file,
        /nothing is there now/,
      );
    }
    // They were written, into the file that is gone: a restart would not find them.
    expect(await store.count()).to.equal(2);
  });
});
