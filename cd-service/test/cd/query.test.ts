import querystring from 'node:querystring';
import { expect } from 'chai';
import fc from 'fast-check';
import {
  buildListQuery,
  COUNT_LIMIT,
  type Condition,
  cappedTotal,
  DEFAULT_LIMIT,
  decodeCursor,
  encodeCursor,
  isTotalExact,
  keysetParts,
  orderFor,
  readPage,
  readPageEnd,
  type SortKey,
} from '../../src/cd/query.js';
import { SORT_FIELDS } from '../../src/cd/schema.js';
import { readListParams } from '../../src/routes/params.js';
import { checked } from '../helpers.js';

const checkListParams = (raw: Record<string, string | string[] | undefined>) =>
  checked(() => readListParams(raw));

const details = (raw: Record<string, string | string[]>) => {
  const checked = checkListParams(raw);
  return checked.ok ? [] : checked.details;
};

describe('readListParams', () => {
  it('accepts every parameter, trimmed, and turns integers into numbers', () => {
    expect(
      checkListParams({
        artist: ' Linkin Park ',
        genre: 'Nu Metal',
        before: '2000',
        fields: 'title',
        sort: '-releaseYear',
        limit: '10',
        offset: '20',
      }),
    ).to.deep.equal({
      ok: true,
      value: {
        artist: 'Linkin Park',
        genre: 'Nu Metal',
        before: 2000,
        fields: 'title',
        sort: '-releaseYear',
        limit: 10,
        offset: 20,
      },
    });
    expect(checkListParams({})).to.deep.equal({ ok: true, value: {} });
  });

  it('reads a number in any JSON spelling, within the range its schema states', () => {
    for (const before of ['2e3', '2000.0', '2000']) {
      expect(checkListParams({ before, limit: '1E1' }), before).to.deep.equal({
        ok: true,
        value: { before: 2000, limit: 10 },
      });
    }
    expect(checkListParams({ before: '9999' }).ok).to.equal(true);
    expect(checkListParams({ before: '1800' }).ok).to.equal(true);
    for (const before of [
      '10000',
      '9007199254740992',
      '1e400',
      '1799',
      '-5',
      '-9007199254740992',
    ]) {
      expect(details({ before }), before).to.deep.equal([
        { field: 'before', message: 'must be an integer from 1800 to 9999' },
      ]);
    }
  });

  it('refuses invalid values, naming the parameter', () => {
    const cases: [string, string][] = [
      ['before', 'abc'],
      ['before', '2.5'],
      ['before', ''],
      ['before', '1e'],
      ['before', '9999999999999999999'],
      ['fields', 'bogus'],
      ['fields', 'title,artist'],
      ['sort', 'genre'],
      ['sort', 'bogus'],
      ['sort', '+title'],
      ['limit', '0'],
      ['limit', '1001'],
      ['limit', 'abc'],
      ['limit', '-1'],
      ['offset', '-1'],
      ['offset', '10001'],
      ['cursor', ''],
      ['cursor', 'not/base64url'],
      ['cursor', 'x'.repeat(4097)],
      ['offset', '1.5'],
      ['artist', ''],
      ['genre', '   '],
    ];
    for (const [name, value] of cases) {
      const found = details({ [name]: value });
      expect(
        found.map((d) => d.field),
        `${name}=${value}`,
      ).to.deep.equal([name]);
      expect(found[0]?.message).to.be.a('string').and.not.equal('');
    }
    expect(details({ limit: '0' })[0]?.message).to.equal('must be an integer from 1 to 1000');
    expect(details({ sort: 'x' })[0]?.message).to.match(
      /title, -title, artist, -artist, releaseYear, -releaseYear/,
    );
  });

  it('refuses a filter no CD can match: control characters or unpaired surrogates', () => {
    for (const name of ['artist', 'genre']) {
      for (const value of ['x\u0000', 'a\tb', '\u0085', 'x\ud800']) {
        expect(details({ [name]: value }), `${name}=${JSON.stringify(value)}`).to.deep.equal([
          { field: name, message: 'must be a non-empty string without control characters' },
        ]);
      }
      expect(checkListParams({ [name]: 'Sigur Rós 👍🏽 a\u00a0b' }).ok).to.equal(true);
    }
  });

  it('accepts the edges of the ranges', () => {
    for (const raw of [{ limit: '1' }, { limit: '1000' }, { offset: '0' }, { offset: '10000' }]) {
      expect(checkListParams(raw).ok, JSON.stringify(raw)).to.equal(true);
    }
  });

  it('refuses a repeated parameter', () => {
    expect(details({ artist: ['a', 'b'], limit: '5' })).to.deep.equal([
      { field: 'artist', message: 'must be given once' },
    ]);
  });

  it('refuses unknown parameters, listing the allowed ones', () => {
    const found = details({ colour: 'red' });
    expect(found).to.have.length(1);
    expect(found[0]?.field).to.equal('colour');
    expect(found[0]?.message).to.equal(
      'is not a parameter here; the parameters are artist, genre, before, fields, sort, limit, offset, cursor',
    );
  });

  it('treats __proto__ and constructor as unknown parameters', () => {
    // As node's querystring parses `?__proto__=x&constructor=y`: own keys of a bare object.
    const raw = querystring.parse('__proto__=x&constructor=y') as Record<string, string>;
    expect(details(raw).map((d) => d.field)).to.have.members(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).x).to.equal(undefined);
  });
});

describe('buildListQuery', () => {
  it('defaults to every field, by title then id, 100 from the start', () => {
    expect(buildListQuery({})).to.deep.equal({
      where: [],
      orderBy: [
        { field: 'title', direction: 1 },
        { field: 'id', direction: 1 },
      ],
      fields: 'all',
      limit: DEFAULT_LIMIT,
      offset: 0,
    });
  });

  it('turns filters into conditions on the lower-case keys', () => {
    expect(
      buildListQuery({ artist: 'Linkin PARK', genre: 'ROCK', before: 2000 }).where,
    ).to.deep.equal([
      { field: 'artistKey', op: 'eq', value: 'linkin park' },
      { field: 'genreKey', op: 'eq', value: 'rock' },
      { field: 'releaseYear', op: 'lt', value: 2000 },
    ]);
  });

  it('sorts as asked, ties broken by title then id; descending reverses all of it', () => {
    expect(buildListQuery({ sort: '-title' }).orderBy).to.deep.equal([
      { field: 'title', direction: -1 },
      { field: 'id', direction: -1 },
    ]);
    expect(buildListQuery({ sort: '-releaseYear' }).orderBy).to.deep.equal([
      { field: 'releaseYear', direction: -1 },
      { field: 'title', direction: -1 },
      { field: 'id', direction: -1 },
    ]);
    expect(buildListQuery({ sort: 'artist' }).orderBy).to.deep.equal([
      { field: 'artist', direction: 1 },
      { field: 'title', direction: 1 },
      { field: 'id', direction: 1 },
    ]);
  });

  it('passes fields, limit and offset on', () => {
    const query = buildListQuery({ fields: 'title', limit: 5, offset: 10 });
    expect([query.fields, query.limit, query.offset]).to.deep.equal(['title', 5, 10]);
  });
});

describe('cursors and keyset pages', () => {
  const id = '0b7c7f0e-8d4e-4f7a-9a53-6f0e2a1c5b3d';
  const message = (raw: Record<string, string>) => details(raw)[0]?.message;

  it('round-trips a sort key through an opaque cursor of its own sort', () => {
    const cursor = encodeCursor('-releaseYear', [1999, 'Kid A', id]);
    expect(cursor).to.match(/^[A-Za-z0-9_-]+$/);
    const query = buildListQuery(checkedValue({ sort: '-releaseYear', cursor }));
    expect(query.after).to.deep.equal([1999, 'Kid A', id]);
    expect(decodeCursor(cursor, orderFor('-releaseYear'))).to.deep.equal([1999, 'Kid A', id]);
  });

  it('refuses a cursor of the wrong shape or of another sort with 400 details naming it', () => {
    const misshapen = [
      Buffer.from('not json').toString('base64url'),
      Buffer.from('{"a":1}').toString('base64url'),
      encodeCursor('title', ['x']),
      encodeCursor('title', ['x', 'not-a-uuid']),
      encodeCursor('title', [7, id]),
      encodeCursor('releaseYear', ['1999', 'x', id]),
      encodeCursor('releaseYear', [1999.5, 'x', id]),
      encodeCursor('-title', ['x', id]),
      encodeCursor('title', ['x', id, 'one value too many']),
      encodeCursor('title', ['x', id.toUpperCase()]),
      encodeCursor('releaseYear', [2 ** 53, 'x', id]),
      Buffer.from(JSON.stringify(['title', null, id])).toString('base64url'),
    ];
    for (const cursor of misshapen) {
      expect(message({ cursor }), cursor).to.match(/^is not a cursor of this list/);
    }
    // A cursor of another sort than the one asked.
    expect(message({ cursor: encodeCursor('title', ['x', id]), sort: 'artist' })).to.match(
      /^is not a cursor of this list/,
    );
    expect(details({ cursor: encodeCursor('title', ['x', id]), offset: '3' })).to.deep.equal([
      {
        field: 'cursor',
        message: 'cannot be combined with offset: the cursor says where the page starts',
      },
    ]);
  });

  /** Any sort, and a key of its order's kinds: any text, any safe integer, any UUID. */
  const sortAndKey = fc
    .constantFrom(...SORT_FIELDS.flatMap((field) => [field, `-${field}`]))
    .chain((sort) =>
      fc
        .tuple(
          ...orderFor(sort).map(({ field }) =>
            field === 'id'
              ? fc.uuid()
              : field === 'releaseYear'
                ? fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER })
                : fc.string({ unit: 'binary', maxLength: 40 }),
          ),
        )
        .map((key) => ({ sort, key: key as SortKey })),
    );

  it('takes any cursor of the shape it checks, whatever the values in it (property)', () => {
    fc.assert(
      fc.property(sortAndKey, ({ sort, key }) => {
        const cursor = encodeCursor(sort, key);
        expect(decodeCursor(cursor, orderFor(sort))).to.deep.equal(key);
        expect(buildListQuery(checkedValue({ sort, cursor })).after).to.deep.equal(key);
      }),
      { numRuns: 300 },
    );
  });

  it('asks the store for at most two reads per field of the order, each stopped within a page, after any cursor (property)', async () => {
    const filters = fc.constantFrom<Record<string, string>>(
      {},
      { genre: 'Rock' },
      { artist: 'A', genre: 'B' },
      { before: '1990' },
    );
    // How many CDs each range of the order holds after the key: none, a few, more than a page.
    const sizes = fc.array(fc.oneof(fc.constant(0), fc.nat(3), fc.nat(2000)), {
      minLength: 3,
      maxLength: 3,
    });
    const cases = fc.record({
      asked: sortAndKey,
      filters,
      limit: fc.integer({ min: 1, max: 1000 }),
      sizes,
    });
    await fc.assert(
      fc.asyncProperty(cases, async ({ asked: { sort, key }, filters, limit, sizes }) => {
        const query = buildListQuery(
          checkedValue({ ...filters, sort, limit: String(limit), cursor: encodeCursor(sort, key) }),
        );
        const parts = keysetParts(query).map((where) => JSON.stringify(where));
        expect(parts).to.have.length(query.orderBy.length);
        for (const reader of [readPage, readPageEnd]) {
          const reads: { part: number; limit: number; offset: number }[] = [];
          await reader(query, (where, limit, offset) => {
            const part = parts.indexOf(JSON.stringify(where));
            reads.push({ part, limit, offset });
            const held = Math.max(0, Math.min(limit, (sizes[part] ?? 0) - offset));
            return Array.from({ length: held }, () => ({ title: 't', id: key.at(-1) }));
          });
          // Each read is one range of the order, walked for at most a page and one more CD.
          expect(reads.length, reader.name).to.be.within(1, 2 * parts.length);
          for (const read of reads) {
            expect(read.part, reader.name).to.be.at.least(0);
            expect(read.offset + read.limit, reader.name).to.be.within(1, limit + 1);
          }
          // What the store walks: the CDs a range holds, up to where its read stops.
          const walked = reads.reduce(
            (sum, { part, offset, limit }) => sum + Math.min(sizes[part] ?? 0, offset + limit),
            0,
          );
          expect(walked, reader.name).to.be.at.most(2 * parts.length * (limit + 1));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('names the cursor when the offset is past its limit', () => {
    expect(message({ offset: '10001' })).to.equal(
      'must be an integer from 0 to 10000; to go further, follow `Link: rel="next"`, whose `cursor` parameter starts the next page at the same cost on every page',
    );
  });

  it('splits a page after a key into index ranges, the nearest first', () => {
    const query = buildListQuery(
      checkedValue({
        genre: 'Rock',
        sort: '-releaseYear',
        cursor: encodeCursor('-releaseYear', [1999, 'Kid A', id]),
      }),
    );
    const genre = { field: 'genreKey', op: 'eq', value: 'rock' };
    expect(keysetParts(query)).to.deep.equal([
      [
        genre,
        { field: 'releaseYear', op: 'eq', value: 1999 },
        { field: 'title', op: 'eq', value: 'Kid A' },
        { field: 'id', op: 'lt', value: id },
      ],
      [
        genre,
        { field: 'releaseYear', op: 'eq', value: 1999 },
        { field: 'title', op: 'lt', value: 'Kid A' },
      ],
      [genre, { field: 'releaseYear', op: 'lt', value: 1999 }],
    ]);
    expect(keysetParts(buildListQuery({ genre: 'Rock' }))).to.deep.equal([[genre]]);
  });

  it('finds where the next page starts from its last CD and the one after, not its rows', async () => {
    // 30 CDs of 3 titles, ids in order: the rows a store would hold, in the list's order.
    const cds = Array.from({ length: 30 }, (_, i) => ({
      title: `t${i % 3}`,
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    })).sort((a, b) => (a.title + a.id < b.title + b.id ? -1 : 1));
    const holds = (cd: Record<string, string>, { field, op, value }: Condition) => {
      const v = cd[field] as string;
      return op === 'eq'
        ? v === value
        : op === 'lt'
          ? v < (value as string)
          : v > (value as string);
    };
    const asked: number[] = [];
    const read = (where: Condition[], limit: number, offset: number) => {
      asked.push(limit);
      return cds.filter((cd) => where.every((c) => holds(cd, c))).slice(offset, offset + limit);
    };
    let cursor: string | undefined;
    let pages = 0;
    do {
      const query = buildListQuery({ limit: 4, cursor });
      const page = await readPage(query, read);
      asked.length = 0;
      const next = await readPageEnd(query, read);
      expect(next, `page ${pages}`).to.deep.equal(page.next);
      // Two rows at the page's end; a part that ends before them is read for its length only.
      expect(asked.filter((limit) => limit <= 2).length, `page ${pages}`).to.be.at.least(1);
      expect(
        asked.filter((limit) => limit > 2),
        `page ${pages}`,
      ).to.have.length.at.most(1);
      cursor = next && encodeCursor(undefined, next);
      pages += 1;
    } while (cursor);
    expect(pages).to.equal(8);
    // By offset, a short or empty last page is one read of at most 2 rows: no part follows.
    for (const offset of [26, 27, 29, 40]) {
      asked.length = 0;
      expect(await readPageEnd(buildListQuery({ limit: 4, offset }), read)).to.equal(undefined);
      expect(asked, `offset ${offset}`).to.have.length(1);
    }
  });

  it('caps a counted total at the count limit, and says so', () => {
    const range = buildListQuery({ before: 1990 });
    expect(cappedTotal(range, COUNT_LIMIT)).to.deep.equal({
      total: COUNT_LIMIT,
      totalAtLeast: false,
    });
    expect(cappedTotal(range, COUNT_LIMIT + 1)).to.deep.equal({
      total: COUNT_LIMIT,
      totalAtLeast: true,
    });
    const kept = buildListQuery({ genre: 'g' });
    expect(cappedTotal(kept, 20_000)).to.deep.equal({ total: 20_000, totalAtLeast: false });
    expect(isTotalExact(buildListQuery({}))).to.equal(true);
    expect(isTotalExact(buildListQuery({ artist: 'a' }))).to.equal(true);
    expect(isTotalExact(buildListQuery({ before: 1990 }))).to.equal(false);
    expect(isTotalExact(buildListQuery({ artist: 'a', genre: 'g' }))).to.equal(false);
  });
});

/** The values of a query that readListParams accepts (a test failure otherwise). */
function checkedValue(raw: Record<string, string>) {
  const result = checkListParams(raw);
  if (!result.ok) throw new Error(JSON.stringify(result.details));
  return result.value;
}
