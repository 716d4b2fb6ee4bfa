import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { buildListQuery, encodeCursor, type ListParams } from '../../src/cd/query.js';
import { newRecord } from '../../src/cd/records.js';
import type { Cd } from '../../src/cd/schema.js';
import { makeCdInput } from '../helpers.js';
import { describeEachStore, type StoreHandle, skipWhereDiffers } from '../stores.js';

/**
 * Binary code point order: what SQLite's BINARY collation and MongoDB's `simple` collation
 * both compare (UTF-8 bytes). Not JavaScript's `<`, which compares UTF-16 units and puts
 * U+1F600 (a surrogate pair, 0xD83D...) before U+FF21.
 */
function byCodePoints(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0) as number);
  const y = [...b].map((c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  }
  return x.length - y.length;
}

/**
 * Titles that a locale-aware order would mix up: cases, accents (precomposed and not),
 * digits, a sharp s, Greek, a full-width letter and one beyond the BMP.
 */
const TITLES = [
  'apple',
  'Apple',
  'APPLE',
  'Äpfel',
  'apfel',
  'éclair',
  'Eclair',
  'e\u0301clair',
  'zebra',
  'Zebra',
  'Straße',
  'strasse',
  '10 Songs',
  '9 Songs',
  'Ωmega',
  'ω',
  '\uFF21 wide',
  '\u{1F600} smile',
  'a',
  'B',
];

describeEachStore('list order', (factory) => {
  let handle: StoreHandle;

  beforeEach(async () => {
    handle = await factory.open();
  });
  afterEach(async () => {
    await handle.dispose();
  });

  const add = async (title: string, artist = 'Artist') =>
    (await handle.store.insert(newRecord(makeCdInput({ title, artist }), randomUUID(), new Date())))
      .cd;
  const ids = async (params: ListParams) =>
    ((await handle.store.list(buildListQuery(params))).items as Cd[]).map((cd) => cd.id);

  it('sorts mixed-case, accented and astral titles by code point, both ways', async function () {
    skipWhereDiffers(this, factory, 'stringOrder');
    const cds: Cd[] = [];
    for (const title of TITLES) cds.push(await add(title));
    cds.push(await add('apple'), await add('Äpfel'));
    const ascending = [...cds].sort(
      (a, b) => byCodePoints(a.title, b.title) || byCodePoints(a.id, b.id),
    );
    const descending = [...ascending].reverse();
    expect(await ids({})).to.deep.equal(ascending.map((cd) => cd.id));
    expect(await ids({ sort: 'title' })).to.deep.equal(ascending.map((cd) => cd.id));
    expect(await ids({ sort: '-title' })).to.deep.equal(descending.map((cd) => cd.id));
    // Pages cut the same order.
    const paged: string[] = [];
    for (let offset = 0; offset < cds.length; offset += 5)
      paged.push(...(await ids({ limit: 5, offset })));
    expect(paged).to.deep.equal(ascending.map((cd) => cd.id));
    // And so do keyset pages, whose cursors compare titles (on the emulator, by bytes while it
    // sorts by locale: this test is skipped there, see mongo-target.ts).
    for (const [sort, order] of [
      ['title', ascending],
      ['-title', descending],
    ] as const) {
      const keyset: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await handle.store.list(buildListQuery({ sort, limit: 4, cursor }));
        keyset.push(...(page.items as Cd[]).map((cd) => cd.id));
        cursor = page.next && encodeCursor(sort, page.next);
      } while (cursor);
      expect(keyset, sort).to.deep.equal(order.map((cd) => cd.id));
    }
  });

  it('sorts by artist, ties by title then id, by code point', async function () {
    skipWhereDiffers(this, factory, 'stringOrder');
    const cds: Cd[] = [];
    for (const [i, artist] of ['émile', 'Emile', 'emile', 'Zoë', 'zoe', 'Émile'].entries()) {
      cds.push(await add(TITLES[i] as string, artist));
      cds.push(await add(TITLES[i + 1] as string, artist));
    }
    const tie = (a: Cd, b: Cd) => byCodePoints(a.title, b.title) || byCodePoints(a.id, b.id);
    expect(await ids({ sort: 'artist' })).to.deep.equal(
      [...cds].sort((a, b) => byCodePoints(a.artist, b.artist) || tie(a, b)).map((cd) => cd.id),
    );
    expect(await ids({ sort: '-artist' })).to.deep.equal(
      [...cds].sort((a, b) => byCodePoints(b.artist, a.artist) || tie(b, a)).map((cd) => cd.id),
    );
  });
});
