import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { WriteBatcher } from '../../src/store/write-batcher.js';
import { folderEachTest } from '../fixtures.js';

describe('WriteBatcher (group commit)', () => {
  const folder = folderEachTest('batch.sqlite');
  let db: Database.Database;
  let other: Database.Database;

  beforeEach(() => {
    db = new Database(folder.file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (v INTEGER PRIMARY KEY)');
    other = new Database(folder.file, { readonly: true });
    folder.closeAfter(() => db.close());
    folder.closeAfter(() => other.close());
  });

  const visible = () => other.prepare('SELECT COUNT(*) FROM t').pluck().get();

  it('commits the writes of one turn together, and settles them after the commit', async () => {
    const batcher = new WriteBatcher(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const writes = Array.from({ length: 50 }, (_, i) => batcher.run(() => insert.run(i).changes));
    expect(visible()).to.equal(0);
    await writes[0];
    // The first one settled: the whole batch is on disk, seen by another connection.
    expect(visible()).to.equal(50);
    expect(await Promise.all(writes)).to.deep.equal(Array(50).fill(1));
  });

  it('rolls back and rejects a failing write alone', async () => {
    const batcher = new WriteBatcher(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const results = await Promise.allSettled([
      batcher.run(() => insert.run(1)),
      batcher.run(() => {
        insert.run(2);
        insert.run(1); // duplicate key: this write's own insert of 2 is undone too
      }),
      batcher.run(() => insert.run(3)),
    ]);
    expect(results.map((r) => r.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
    expect(db.prepare('SELECT v FROM t ORDER BY v').pluck().all()).to.deep.equal([1, 3]);
  });

  it('rejects every write of a batch whose commit fails', async () => {
    const batcher = new WriteBatcher(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const writes = [batcher.run(() => insert.run(1)), batcher.run(() => insert.run(2))];
    db.close();
    const results = await Promise.allSettled(writes);
    expect(results.map((r) => r.status)).to.deep.equal(['rejected', 'rejected']);
    db = new Database(join(folder.dir, 'batch.sqlite'));
  });

  it('rejects every write of a batch that SQLite rolled back (a full disk), and runs none outside it', async () => {
    const batcher = new WriteBatcher(db);
    db.exec('CREATE TABLE big (v TEXT)');
    const insert = db.prepare('INSERT INTO big (v) VALUES (?)');
    // The database may not grow: the first insert that needs a page fails with SQLITE_FULL,
    // and SQLite rolls back the whole transaction, the writes before it included.
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true })}`);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => batcher.run(() => insert.run('x'.repeat(3000)))),
    );
    expect(results.map((r) => r.status)).to.deep.equal(Array(20).fill('rejected'));
    expect(results.map((r) => (r as PromiseRejectedResult).reason.code)).to.deep.equal(
      Array(20).fill('SQLITE_FULL'),
    );
    expect(db.inTransaction).to.equal(false);
    expect(other.prepare('SELECT COUNT(*) FROM big').pluck().get()).to.equal(0);
  });

  it('commits what is queued when flushed at once (on close)', () => {
    const batcher = new WriteBatcher(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    void batcher.run(() => insert.run(7));
    batcher.flush();
    expect(visible()).to.equal(1);
  });
});
