import { expect } from 'chai';
import { buildListQuery } from '../../src/cd/query.js';
import {
  CD_COLUMNS,
  column,
  KEPT_COUNT_SQL,
  SCHEMA_SQL,
  toSqlite,
} from '../../src/store/sqlite-schema.js';

describe('SQLite mapping', () => {
  it('names columns after the record properties', () => {
    expect(column('releaseYear')).to.equal('release_year');
    expect(column('artistKey')).to.equal('artist_key');
    expect(column('title')).to.equal('title');
    expect(CD_COLUMNS).to.equal(
      'id, title, artist, genre, release_year AS releaseYear, created_at AS createdAt, updated_at AS updatedAt',
    );
  });

  it('derives the table from the CD definition', () => {
    expect(SCHEMA_SQL).to.include('id TEXT PRIMARY KEY NOT NULL');
    expect(SCHEMA_SQL).to.include('title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 200)');
    expect(SCHEMA_SQL).to.include('release_year INTEGER NOT NULL CHECK (release_year >= 1800)');
    expect(SCHEMA_SQL).to.include('artist_key TEXT NOT NULL');
    expect(SCHEMA_SQL).to.include(
      'CREATE INDEX IF NOT EXISTS cds_artist_key_title_id ON cds (artist_key, title, id)',
    );
    expect(SCHEMA_SQL).to.include(
      'CREATE INDEX IF NOT EXISTS cds_genre_key_title_id ON cds (genre_key, title, id)',
    );
    expect(SCHEMA_SQL).to.include('cds (release_year, title, id)');
  });

  it('builds the default list query', () => {
    expect(toSqlite(buildListQuery({}))).to.deep.equal({
      sql: `SELECT ${CD_COLUMNS} FROM cds ORDER BY title ASC, id ASC LIMIT ? OFFSET ?`,
      params: [100, 0],
      countSql: KEPT_COUNT_SQL,
      countParams: ['', ''],
    });
  });

  it('reads the kept count for no filter or one filter, and counts the rows for the rest', () => {
    const count = (params: Parameters<typeof buildListQuery>[0]) => {
      const { countSql, countParams } = toSqlite(buildListQuery(params));
      return { countSql, countParams };
    };
    expect(KEPT_COUNT_SQL).to.equal(
      'SELECT ifnull((SELECT total FROM counts WHERE filter = ? AND key = ?), 0) AS total',
    );
    expect(count({ sort: '-artist', offset: 20 })).to.deep.equal({
      countSql: KEPT_COUNT_SQL,
      countParams: ['', ''],
    });
    expect(count({ genre: ' Rock ' })).to.deep.equal({
      countSql: KEPT_COUNT_SQL,
      countParams: ['genre_key', 'rock'],
    });
    expect(count({ artist: 'Björk', sort: 'releaseYear' })).to.deep.equal({
      countSql: KEPT_COUNT_SQL,
      countParams: ['artist_key', 'björk'],
    });
    expect(count({ artist: 'a', genre: 'g' })).to.deep.equal({
      countSql: 'SELECT COUNT(*) AS total FROM cds WHERE artist_key = ? AND genre_key = ?',
      countParams: ['a', 'g'],
    });
    expect(count({ before: 1990 })).to.deep.equal({
      countSql: 'SELECT COUNT(*) AS total FROM cds WHERE release_year < ?',
      countParams: [1990],
    });
  });

  it('keeps the counts with triggers on every insert, delete and change of a key', () => {
    expect(SCHEMA_SQL).to.include(
      'CREATE TABLE IF NOT EXISTS counts (filter TEXT NOT NULL, key TEXT NOT NULL, total INTEGER NOT NULL CHECK (total >= 0), PRIMARY KEY (filter, key)) STRICT, WITHOUT ROWID',
    );
    for (const trigger of [
      'cds_count_insert AFTER INSERT ON cds',
      'cds_count_delete AFTER DELETE ON cds',
      'cds_count_update_artist_key AFTER UPDATE OF artist_key ON cds WHEN OLD.artist_key IS NOT NEW.artist_key',
      'cds_count_update_genre_key AFTER UPDATE OF genre_key ON cds WHEN OLD.genre_key IS NOT NEW.genre_key',
    ]) {
      expect(SCHEMA_SQL).to.include(`CREATE TRIGGER IF NOT EXISTS ${trigger} BEGIN`);
    }
  });

  it('binds every value as a parameter: nothing a client sends becomes SQL', () => {
    const query = toSqlite(
      buildListQuery({
        artist: "x' OR 1=1 --",
        genre: '%',
        before: 1990,
        sort: '-releaseYear',
        limit: 5,
        offset: 10,
      }),
    );
    expect(query).to.deep.equal({
      sql: `SELECT ${CD_COLUMNS} FROM cds WHERE artist_key = ? AND genre_key = ? AND release_year < ? ORDER BY release_year DESC, title ASC, id ASC LIMIT ? OFFSET ?`,
      params: ["x' or 1=1 --", '%', 1990, 5, 10],
      countSql:
        'SELECT COUNT(*) AS total FROM cds WHERE artist_key = ? AND genre_key = ? AND release_year < ?',
      countParams: ["x' or 1=1 --", '%', 1990],
    });
    expect(query.sql).not.to.match(/LIKE|REGEXP|GLOB/);
  });

  it('selects only the title for fields=title', () => {
    expect(toSqlite(buildListQuery({ fields: 'title' })).sql).to.match(/^SELECT title FROM cds /);
  });
});
