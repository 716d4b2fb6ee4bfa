import { expect } from 'chai';
import mongoose from 'mongoose';
import { buildListQuery } from '../../src/cd/query.js';
import { newRecord } from '../../src/cd/records.js';
import { maxYear } from '../../src/cd/schema.js';
import { cdMongooseSchema, toMongo } from '../../src/store/mongo-schema.js';
import { makeCdInput } from '../helpers.js';

// A model on mongoose's default connection, never connected: validation needs no server.
const Model = mongoose.model('CdSchemaTest', cdMongooseSchema());

const validDoc = (overrides: Record<string, unknown> = {}) => {
  const { id, ...rest } = newRecord(
    makeCdInput(),
    '6f1c3a52-0d1e-4c5e-9a0b-2f3e4d5c6b7a',
    new Date(),
  );
  return { _id: id, ...rest, ...overrides };
};

const rejects = async (doc: Record<string, unknown>): Promise<string[]> => {
  try {
    await new Model(doc).validate();
  } catch (error) {
    return Object.keys((error as mongoose.Error.ValidationError).errors ?? {});
  }
  return [];
};

describe('Mongoose schema (no server)', () => {
  it('accepts a valid record and keeps the service timestamps', async () => {
    const doc = validDoc();
    await new Model(doc).validate();
    const model = new Model(doc);
    expect(model.get('createdAt')).to.be.instanceOf(Date);
    expect((model.get('createdAt') as Date).toISOString()).to.equal(doc.createdAt);
  });

  it('rejects missing, empty and too long text', async () => {
    expect(await rejects(validDoc({ title: undefined }))).to.deep.equal(['title']);
    expect(await rejects(validDoc({ artist: '' }))).to.deep.equal(['artist']);
    expect(await rejects(validDoc({ genre: '   ' }))).to.deep.equal(['genre']);
    expect(await rejects(validDoc({ title: 'x'.repeat(201) }))).to.deep.equal(['title']);
  });

  it('rejects release years out of range or not integers', async () => {
    expect(await rejects(validDoc({ releaseYear: 1799 }))).to.deep.equal(['releaseYear']);
    expect(await rejects(validDoc({ releaseYear: maxYear() + 1 }))).to.deep.equal(['releaseYear']);
    expect(await rejects(validDoc({ releaseYear: 2000.5 }))).to.deep.equal(['releaseYear']);
    expect(await rejects(validDoc({ releaseYear: 'soon' }))).to.deep.equal(['releaseYear']);
    expect(await rejects(validDoc({ releaseYear: maxYear() }))).to.deep.equal([]);
  });

  it('requires the id, the filter keys and the timestamps', async () => {
    expect(
      await rejects(
        validDoc({
          _id: undefined,
          artistKey: undefined,
          genreKey: undefined,
          createdAt: undefined,
        }),
      ),
    ).to.have.members(['_id', 'artistKey', 'genreKey', 'createdAt']);
  });

  it('refuses unknown paths rather than dropping them', () => {
    expect(() => new Model(validDoc({ colour: 'red' }))).to.throw(/colour/);
  });

  it('declares the indexes that serve the filters', () => {
    const indexes = cdMongooseSchema()
      .indexes()
      .map(([fields]) => Object.keys(fields).join(','));
    expect(indexes).to.include.members([
      'title,_id',
      'artistKey,title,_id',
      'genreKey,title,_id',
      'releaseYear,title,_id',
    ]);
  });
});

describe('toMongo (no server)', () => {
  it('builds the default query', () => {
    expect(toMongo(buildListQuery({}))).to.deep.equal({
      filter: {},
      sort: { title: 1, _id: 1 },
      projection: undefined,
      skip: 0,
      limit: 100,
    });
  });

  it('filters with plain equality on the keys and $lt on the year: no regex', () => {
    const query = toMongo(
      buildListQuery({
        artist: 'A.*',
        genre: '(x)+',
        before: 1990,
        sort: '-artist',
        limit: 3,
        offset: 6,
      }),
    );
    expect(query).to.deep.equal({
      filter: { artistKey: { $eq: 'a.*' }, genreKey: { $eq: '(x)+' }, releaseYear: { $lt: 1990 } },
      sort: { artist: -1, title: 1, _id: 1 },
      projection: undefined,
      skip: 6,
      limit: 3,
    });
    expect(JSON.stringify(query)).not.to.match(/\$regex/);
    expect(Object.keys(query.sort)).to.deep.equal(['artist', 'title', '_id']);
  });

  it('projects only the title for fields=title', () => {
    expect(toMongo(buildListQuery({ fields: 'title' })).projection).to.deep.equal({
      _id: 0,
      title: 1,
    });
  });

  it('builds a query Mongoose accepts as it is', () => {
    const { filter, sort } = toMongo(buildListQuery({ artist: "O'Brien", before: 2000 }));
    const query = Model.find(filter).sort(sort);
    expect(query.getFilter()).to.deep.equal({
      artistKey: { $eq: "o'brien" },
      releaseYear: { $lt: 2000 },
    });
    expect(query.getOptions().sort).to.deep.equal({ title: 1, _id: 1 });
  });
});
