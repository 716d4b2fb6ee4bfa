import { expect } from 'chai';
import { changesFor, newRecord } from '../../src/cd/records.js';
import { FIELD_NAMES, filterKey, maxYear, toCd, toTitleOnly } from '../../src/cd/schema.js';
import { cdSchemas } from '../../src/cd/validate.js';

const NOW = new Date('2025-03-04T05:06:07.089Z');

describe('the CD definition', () => {
  it('has the four client fields', () => {
    expect(FIELD_NAMES).to.deep.equal(['title', 'artist', 'genre', 'releaseYear']);
  });

  it('derives the create and update schemas from the fields', () => {
    const { create, update } = cdSchemas(2026);
    expect(create.required).to.deep.equal(FIELD_NAMES);
    expect(create.additionalProperties).to.equal(false);
    expect(update.minProperties).to.equal(1);
    expect(update.additionalProperties).to.equal(false);
    expect(Object.keys(create.properties)).to.deep.equal(FIELD_NAMES);
    expect(create.properties.releaseYear).to.deep.equal({
      type: 'integer',
      minimum: 1800,
      maximum: 2026,
    });
    expect(create.properties.title).to.deep.equal({
      type: 'string',
      minLength: 1,
      maxLength: 200,
      pattern: '^(?![\\p{White_Space}\\p{Default_Ignorable_Code_Point}]*$)[^\\p{Cc}\\p{Cs}]*$',
    });
  });

  it('computes the latest year from the clock', () => {
    expect(maxYear(new Date('2025-12-31T23:59:59Z'))).to.equal(2026);
    expect(maxYear(new Date('2026-01-01T00:00:00Z'))).to.equal(2027);
    expect(maxYear()).to.equal(new Date().getUTCFullYear() + 1);
  });

  it('matches artist and genre by a trimmed, normalized, lower-case key', () => {
    expect(filterKey('  Linkin PARK ')).to.equal('linkin park');
    expect(filterKey('BJÖRK')).to.equal('björk');
    expect(filterKey('Beyonce\u0301')).to.equal(filterKey('BEYONCÉ'));
    expect(filterKey('A%_.*')).to.equal('a%_.*');
  });

  it('shapes what a store returns into the public CD, whatever extra it holds', () => {
    const created = new Date('2024-01-01T00:00:00.000Z');
    const cd = toCd({
      _id: 'abc',
      releaseYear: 1999,
      genre: 'g',
      artist: 'a',
      title: 't',
      artistKey: 'a',
      genreKey: 'g',
      createdAt: created,
      updatedAt: '2024-01-02T00:00:00.000Z',
      extra: 'dropped',
    });
    expect(cd).to.deep.equal({
      id: 'abc',
      title: 't',
      artist: 'a',
      genre: 'g',
      releaseYear: 1999,
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-02T00:00:00.000Z',
    });
    expect(Object.keys(cd)).to.deep.equal([
      'id',
      'title',
      'artist',
      'genre',
      'releaseYear',
      'createdAt',
      'updatedAt',
    ]);
    expect(toTitleOnly({ title: 't', id: 'x' })).to.deep.equal({ title: 't' });
  });
});

describe('records', () => {
  it('a new record gets its id, timestamps with milliseconds and filter keys', () => {
    const record = newRecord(
      { title: 'T', artist: 'Some ONE', genre: 'Hip Hop', releaseYear: 2001 },
      'id-1',
      NOW,
    );
    expect(record).to.deep.equal({
      id: 'id-1',
      title: 'T',
      artist: 'Some ONE',
      genre: 'Hip Hop',
      releaseYear: 2001,
      artistKey: 'some one',
      genreKey: 'hip hop',
      createdAt: '2025-03-04T05:06:07.089Z',
      updatedAt: '2025-03-04T05:06:07.089Z',
    });
  });

  it('changes carry the given fields, their keys and updatedAt only', () => {
    expect(changesFor({ artist: 'New ARTIST' }, NOW)).to.deep.equal({
      artist: 'New ARTIST',
      artistKey: 'new artist',
      updatedAt: NOW.toISOString(),
    });
    expect(changesFor({ releaseYear: 1990, title: 'x' }, NOW)).to.deep.equal({
      title: 'x',
      releaseYear: 1990,
      updatedAt: NOW.toISOString(),
    });
  });
});
