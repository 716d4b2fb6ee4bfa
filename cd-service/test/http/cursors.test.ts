import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { createApp } from '../../src/app.js';
import {
  encodeCursor,
  type OrderBy,
  orderFor,
  type SortKey,
  sortKeyOf,
} from '../../src/cd/query.js';
import { newRecord } from '../../src/cd/records.js';
import { type Cd, SORT_FIELDS } from '../../src/cd/schema.js';
import { makeCdInput, request } from '../helpers.js';
import { describeEachStore, type StoreHandle, skipWhereDiffers } from '../stores.js';

/**
 * The order both stores compare values in: numbers by value, texts by code point (their UTF-8
 * bytes, which is also how either store takes an unpaired surrogate: as U+FFFD).
 */
function compareValues(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  return Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)));
}

/** Where key `a` stands against key `b` in a list's order: negative before, positive after. */
function compareKeys(a: SortKey, b: SortKey, orderBy: OrderBy[]): number {
  for (const [i, { direction }] of orderBy.entries()) {
    const order = compareValues(a[i] as string | number, b[i] as string | number);
    if (order !== 0) return order * direction;
  }
  return 0;
}

const SORTS = SORT_FIELDS.flatMap((field) => [field, `-${field}`]);
/** Filters of every kind: none, one equality, two, a range, a range with an equality. */
const FILTERS: Record<string, string>[] = [
  {},
  { genre: 'jazz' },
  { artist: 'b' },
  { genre: 'Rock', artist: 'A' },
  { before: '1980' },
  { genre: 'rock', before: '1990' },
];

/**
 * A cursor is not signed: anyone can edit one. These tests show what an edited cursor that
 * passes the checks (the shape the README states) can do: name another position in the list,
 * and nothing else.
 */
describeEachStore('edited cursors', (factory) => {
  let handle: StoreHandle;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let cds: Cd[];

  before(async () => {
    handle = await factory.open();
    app = createApp({ store: handle.store }).callback();
    // Few distinct values, so that keys tie on their first fields and every part of a keyset
    // page has CDs in it.
    const records = Array.from({ length: 48 }, (_, i) =>
      newRecord(
        makeCdInput({
          title: ['Blue', 'blue', 'Ärger', 'Zoo', '\u{1F600} Smile'][i % 5],
          artist: ['A', 'B', 'b'][i % 3],
          genre: ['Jazz', 'Rock'][i % 2],
          releaseYear: 1960 + (i % 4) * 10,
        }),
        randomUUID(),
        new Date(),
      ),
    );
    await handle.store.seedOnce(records);
    cds = (await request(app).get('/cds?limit=1000').expect(200)).body;
    expect(cds).to.have.length(48);
  });
  // Also run when the suite skips itself, before `handle` is set.
  after(() => handle?.dispose());

  /** Every CD a list matches, in its order, read without a cursor. */
  const wholeLists = new Map<string, Cd[]>();
  const wholeList = async (filters: Record<string, string>, sort: string) => {
    const search = new URLSearchParams({ ...filters, sort, limit: '1000' }).toString();
    if (!wholeLists.has(search)) {
      wholeLists.set(search, (await request(app).get(`/cds?${search}`).expect(200)).body);
    }
    return wholeLists.get(search) as Cd[];
  };

  /** A value of the field's kind: any text, any safe integer, any UUID. */
  const anyValue = (field: OrderBy['field']): fc.Arbitrary<string | number> =>
    field === 'id'
      ? fc.uuid()
      : field === 'releaseYear'
        ? fc.oneof(
            fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
            fc.integer({ min: 1950, max: 2000 }),
          )
        : fc.oneof(
            fc.string({ unit: 'binary', maxLength: 30 }),
            fc.constantFrom(
              '',
              'Blue',
              'blue ',
              'Zoo\u0000',
              'A',
              'b',
              '\uD800',
              '\uFFFF',
              '\u{10FFFF}',
            ),
          );

  /**
   * An edited key: the key of any CD (of this list or not), each value kept or replaced by any
   * value of its kind (another title, another year, another id).
   */
  const editedKey = (orderBy: OrderBy[]) =>
    fc
      .tuple(
        fc.constantFrom(...cds),
        fc.tuple(...orderBy.map(({ field }) => fc.option(anyValue(field), { freq: 2 }))),
      )
      .map(([cd, edits]) =>
        sortKeyOf(cd, orderBy).map((value, i) => edits[i] ?? value),
      ) as fc.Arbitrary<SortKey>;

  const cases = fc
    .record({
      filters: fc.constantFrom(...FILTERS),
      sort: fc.constantFrom(...SORTS),
      limit: fc.integer({ min: 1, max: 12 }),
    })
    .chain((asked) => editedKey(orderFor(asked.sort)).map((key) => ({ ...asked, key })));

  it('start the page after the position they name: only CDs the filters match, in order, never an error', async function () {
    skipWhereDiffers(this, factory, 'stringOrder');
    this.timeout(120_000);
    await fc.assert(
      fc.asyncProperty(cases, async ({ filters, sort, limit, key }) => {
        const orderBy = orderFor(sort);
        const cursor = encodeCursor(sort, key);
        const search = new URLSearchParams({ ...filters, sort, limit: String(limit), cursor });
        const res = await request(app).get(`/cds?${search}`);
        expect(res.status, res.text).to.equal(200);
        const whole = await wholeList(filters, sort);
        const after = whole.filter((cd) => compareKeys(sortKeyOf(cd, orderBy), key, orderBy) > 0);
        const page = after.slice(0, limit);
        expect(res.body).to.deep.equal(page);
        // The total is the list's, whatever the cursor says.
        expect(res.headers['x-total-count']).to.equal(String(whole.length));
        const last = page[page.length - 1];
        const next =
          after.length > limit && last
            ? `</cds?${new URLSearchParams({ ...filters, sort, cursor: encodeCursor(sort, sortKeyOf(last, orderBy)), limit: String(limit) })}>; rel="next"`
            : undefined;
        expect(res.headers.link).to.equal(next);
        // Revalidated, the page is summarized without its rows: the same headers.
        const again = await request(app)
          .get(`/cds?${search}`)
          .set('If-None-Match', res.headers.etag as string);
        expect(again.status).to.equal(304);
        expect([again.headers['x-total-count'], again.headers.link]).to.deep.equal([
          res.headers['x-total-count'],
          res.headers.link,
        ]);
      }),
      { numRuns: 150 },
    );
  });
});
