import Database from 'better-sqlite3';
import { expect } from 'chai';
import { StoreUnavailable } from '../../src/cd/errors.js';
import { startFailure } from '../../src/store/open.js';
import { READ_UNAVAILABLE, SqliteUnavailable } from '../../src/store/sqlite.js';

describe('startFailure: a store failing during the start', () => {
  it('names the file and gives SQLite\'s reason, not "try again later"', () => {
    const corrupt = new Database.SqliteError('database disk image is malformed', 'SQLITE_CORRUPT');
    const failure = startFailure(new SqliteUnavailable(READ_UNAVAILABLE, corrupt), {
      dbPath: '/srv/cds.sqlite',
    }) as Error;
    expect(failure.message).to.equal(
      '/srv/cds.sqlite: database disk image is malformed (SQLITE_CORRUPT)',
    );
    expect(failure).not.to.be.instanceOf(StoreUnavailable);
    expect(failure.cause).to.equal(corrupt);
  });

  it('names MongoDB for the MongoDB store, and keeps any other error as it is', () => {
    const cause = new Error('MongoDB did not answer the count within 4000 ms');
    const unavailable = new StoreUnavailable('The database does not answer; try again later', 5, {
      cause,
    });
    expect(
      (startFailure(unavailable, { dbPath: 'x', mongodbUri: 'mongodb://db/cds' }) as Error).message,
    ).to.equal('MongoDB: MongoDB did not answer the count within 4000 ms');
    const other = new Error('PORT must be a whole number');
    expect(startFailure(other, { dbPath: 'x' })).to.equal(other);
  });
});
