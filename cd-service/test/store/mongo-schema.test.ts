import { expect } from 'chai';
import fc from 'fast-check';
import mongoose from 'mongoose';
import { buildListQuery } from '../../src/cd/query.js';
import { newRecord } from '../../src/cd/records.js';
import { MAX_TEXT_LENGTH, MIN_YEAR, maxYear } from '../../src/cd/schema.js';
import { checkCreate } from '../../src/cd/validate.js';
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

  it('holds the shape: each field required, of its type', async () => {
    expect(await rejects(validDoc({ title: undefined }))).to.deep.equal(['title']);
    expect(await rejects(validDoc({ releaseYear: 'soon' }))).to.deep.equal(['releaseYear']);
  });

  it('leaves the rules to the JSON Schema: no lengths, years or trimming of its own', async () => {
    const schema = cdMongooseSchema();
    for (const name of ['title', 'artist', 'genre', 'releaseYear']) {
      const types = schema.path(name).validators.map((validator) => validator.type);
      expect(types, name).to.deep.equal(['required']);
    }
    // What ajv would refuse is no business of this schema: it is never called with it.
    expect(await rejects(validDoc({ title: 'x'.repeat(201), releaseYear: 1700 }))).to.deep.equal(
      [],
    );
    expect(new Model(validDoc({ title: ' spaced ' })).get('title')).to.equal(' spaced ');
  });

  it('never refuses what ajv accepted, on any clock (property)', async () => {
    const text = fc.string({ unit: 'binary', minLength: 0, maxLength: MAX_TEXT_LENGTH + 2 });
    const edgeText = fc.oneof(
      text,
      fc.constantFrom(
        'x'.repeat(MAX_TEXT_LENGTH),
        '\u{1F600}'.repeat(MAX_TEXT_LENGTH),
        ` ${'y'.repeat(MAX_TEXT_LENGTH)} `,
        'e\u0301',
      ),
    );
    // Around New Year of a few years (each year compiles its own ajv validators).
    const clock = fc
      .tuple(fc.integer({ min: 2025, max: 2028 }), fc.integer({ min: -36, max: 36 }))
      .map(([year, hours]) => new Date(Date.UTC(year, 0, 1) + hours * 3_600_000));
    const body = (now: Date) =>
      fc.record({
        title: edgeText,
        artist: edgeText,
        genre: edgeText,
        releaseYear: fc.oneof(
          fc.constantFrom(MIN_YEAR - 1, MIN_YEAR, maxYear(now) - 1, maxYear(now), maxYear(now) + 1),
          fc.integer({ min: MIN_YEAR - 1, max: 2100 }),
        ),
      });
    const cases = clock.chain((now) => body(now).map((input) => ({ input, now })));
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(cases, async ({ input, now }) => {
        const checked = checkCreate(input, now);
        if (!checked.ok) return;
        accepted += 1;
        const { id, ...rest } = newRecord(
          checked.value,
          '6f1c3a52-0d1e-4c5e-9a0b-2f3e4d5c6b7a',
          now,
        );
        await new Model({ _id: id, ...rest }).validate();
      }),
      { numRuns: 120 },
    );
    expect(accepted).to.be.greaterThan(10);
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

  it('declares an index for every combination of filters and every sort, as SQLite has', () => {
    const indexes = cdMongooseSchema()
      .indexes()
      .map(([fields]) =>
        Object.entries(fields)
          .map(([name, direction]) => `${name}:${direction}`)
          .join(','),
      );
    expect(indexes).to.have.members([
      'title:1,_id:1,releaseYear:1',
      'artist:1,title:1,_id:1,releaseYear:1',
      'releaseYear:1,title:1,_id:1',
      'genreKey:1,title:1,_id:1,releaseYear:1',
      'genreKey:1,artist:1,title:1,_id:1,releaseYear:1',
      'genreKey:1,releaseYear:1,title:1,_id:1',
      'artistKey:1,title:1,_id:1,releaseYear:1',
      'artistKey:1,artist:1,title:1,_id:1,releaseYear:1',
      'artistKey:1,releaseYear:1,title:1,_id:1',
      'artistKey:1,genreKey:1,title:1,_id:1,releaseYear:1',
      'artistKey:1,genreKey:1,artist:1,title:1,_id:1,releaseYear:1',
      'artistKey:1,genreKey:1,releaseYear:1,title:1,_id:1',
    ]);
  });
});

describe('toMongo (no server)', () => {
  it('builds the default query', () => {
    expect(toMongo(buildListQuery({}))).to.deep.equal({
      filter: {},
      collation: { locale: 'simple' },
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
      collation: { locale: 'simple' },
      sort: { artist: -1, title: -1, _id: -1 },
      projection: undefined,
      skip: 6,
      limit: 3,
    });
    expect(JSON.stringify(query)).not.to.match(/\$regex/);
    expect(Object.keys(query.sort)).to.deep.equal(['artist', 'title', '_id']);
  });

  it('projects only the title for fields=title', () => {
    // With the sort key, for the next page's cursor; the route shows the title only.
    expect(toMongo(buildListQuery({ fields: 'title' })).projection).to.deep.equal({
      title: 1,
      _id: 1,
    });
    expect(
      toMongo(buildListQuery({ fields: 'title', sort: '-releaseYear' })).projection,
    ).to.deep.equal({
      title: 1,
      releaseYear: 1,
      _id: 1,
    });
  });

  it('says its string order: binary code points, as SQLite compares', () => {
    for (const params of [{}, { sort: '-artist' }, { sort: 'releaseYear', artist: 'x' }])
      expect(toMongo(buildListQuery(params)).collation).to.deep.equal({ locale: 'simple' });
  });

  it('builds a query Mongoose accepts as it is', () => {
    const { filter, collation, sort } = toMongo(
      buildListQuery({ artist: "O'Brien", before: 2000 }),
    );
    const query = Model.find(filter).collation(collation).sort(sort);
    expect(query.getFilter()).to.deep.equal({
      artistKey: { $eq: "o'brien" },
      releaseYear: { $lt: 2000 },
    });
    expect(query.getOptions().sort).to.deep.equal({ title: 1, _id: 1 });
    expect(query.getOptions().collation).to.deep.equal({ locale: 'simple' });
  });
});
