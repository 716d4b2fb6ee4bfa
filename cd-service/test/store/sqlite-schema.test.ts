import { expect } from 'chai';
import { buildListQuery } from '../../src/cd/query.js';
import {
  CD_COLUMNS,
  column,
  KEPT_COUNT_SQL,
  LIST_INDEXES,
  LIST_INDEXES_SQL,
  MIGRATIONS,
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
    expect(SCHEMA_SQL).to.include('title TEXT NOT NULL,');
    expect(SCHEMA_SQL).to.include('release_year INTEGER NOT NULL,');
    expect(SCHEMA_SQL).to.include('artist_key TEXT NOT NULL');
  });

  it('has an index for every combination of filters and every sort, the year last when missing', () => {
    expect(LIST_INDEXES.map((index) => index.columns.join(', '))).to.have.members([
      'title, id, release_year',
      'artist, title, id, release_year',
      'release_year, title, id',
      'genre_key, title, id, release_year',
      'genre_key, artist, title, id, release_year',
      'genre_key, release_year, title, id',
      'artist_key, title, id, release_year',
      'artist_key, artist, title, id, release_year',
      'artist_key, release_year, title, id',
      'artist_key, genre_key, title, id, release_year',
      'artist_key, genre_key, artist, title, id, release_year',
      'artist_key, genre_key, release_year, title, id',
    ]);
    expect(LIST_INDEXES_SQL).to.include(
      'CREATE INDEX IF NOT EXISTS cds_list_genre_key_release_year_title_id ON cds (genre_key, release_year, title, id)',
    );
    // The step that made them drops the indexes of version 1; the steps before stay as they were.
    expect(MIGRATIONS[0]).to.include(
      'CREATE INDEX IF NOT EXISTS cds_genre_key_title_id ON cds (genre_key, title, id)',
    );
    expect(MIGRATIONS[1]).to.include('DROP INDEX IF EXISTS cds_genre_key_title_id');
    expect(MIGRATIONS[1]).to.include(LIST_INDEXES_SQL);
  });

  it('builds the default list query', () => {
    expect(toSqlite(buildListQuery({}))).to.deep.equal({
      sql: `SELECT ${CD_COLUMNS} FROM cds INDEXED BY cds_list_title_id_release_year ORDER BY title ASC, id ASC LIMIT ? OFFSET ?`,
      params: [100, 0],
      names: ['id', 'title', 'artist', 'genre', 'releaseYear', 'createdAt', 'updatedAt'],
      countSql: KEPT_COUNT_SQL,
      countParams: ['', ''],
    });
  });

  it('reads the kept count for no filter or one filter, and counts the rows for the rest up to the limit', () => {
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
      countSql:
        'SELECT COUNT(*) AS total FROM (SELECT 1 FROM cds WHERE artist_key = ? AND genre_key = ? LIMIT 1001)',
      countParams: ['a', 'g'],
    });
    expect(count({ before: 1990 })).to.deep.equal({
      countSql:
        'SELECT COUNT(*) AS total FROM (SELECT 1 FROM cds WHERE release_year < ? LIMIT 1001)',
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
      sql: `SELECT ${CD_COLUMNS} FROM cds INDEXED BY cds_list_artist_key_genre_key_release_year_title_id WHERE artist_key = ? AND genre_key = ? AND release_year < ? ORDER BY release_year DESC, title DESC, id DESC LIMIT ? OFFSET ?`,
      params: ["x' or 1=1 --", '%', 1990, 5, 10],
      countSql:
        'SELECT COUNT(*) AS total FROM (SELECT 1 FROM cds WHERE artist_key = ? AND genre_key = ? AND release_year < ? LIMIT 1001)',
      countParams: ["x' or 1=1 --", '%', 1990],
      names: ['id', 'title', 'artist', 'genre', 'releaseYear', 'createdAt', 'updatedAt'],
    });
    expect(query.sql).not.to.match(/LIKE|REGEXP|GLOB/);
  });

  it('selects the title and the sort key (for the cursor) for fields=title', () => {
    expect(toSqlite(buildListQuery({ fields: 'title' })).sql).to.match(
      /^SELECT title, id FROM cds /,
    );
    expect(toSqlite(buildListQuery({ fields: 'title', sort: 'releaseYear' })).sql).to.match(
      /^SELECT title, release_year AS releaseYear, id FROM cds /,
    );
  });
});
