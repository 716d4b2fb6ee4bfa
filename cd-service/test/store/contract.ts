import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { VersionMismatch } from '../../src/cd/errors.js';
import { buildListQuery, COUNT_LIMIT, encodeCursor, type ListParams } from '../../src/cd/query.js';
import { changesFor, newRecord } from '../../src/cd/records.js';
import type { Cd, CdChanges, CdInput } from '../../src/cd/schema.js';
import type { CdStore } from '../../src/store/store.js';
import { byCodePoint, makeCdInput } from '../helpers.js';
import { type StoreFactory, type StoreHandle, skipWhereDiffers } from '../stores.js';
import { UNUSUAL_TEXT } from '../text-cases.js';

const PUBLIC_KEYS = ['id', 'title', 'artist', 'genre', 'releaseYear', 'createdAt', 'updatedAt'];
const T0 = new Date('2024-01-02T03:04:05.678Z');
const T1 = new Date('2024-06-07T08:09:10.111Z');

/** The behaviour every store has, whatever holds the data: run on each store. */
export function describeStoreContract(factory: StoreFactory): void {
  describe(`store contract: ${factory.name}`, () => {
    let handle: StoreHandle;
    let store: CdStore;

    beforeEach(async () => {
      handle = await factory.open();
      store = handle.store;
    });
    afterEach(async () => {
      await handle.dispose();
    });

    const add = async (overrides: Partial<CdInput> = {}, now = T0) =>
      (await store.insert(newRecord(makeCdInput(overrides), randomUUID(), now))).cd;
    /** The CD as stored now, without its version. */
    const read = async (id: string) => (await store.get(id))?.cd;
    const change = async (id: string, changes: CdChanges) => (await store.update(id, changes))?.cd;
    const list = async (params: ListParams = {}) => store.list(buildListQuery(params));
    const titles = async (params: ListParams = {}) =>
      ((await list(params)).items as { title: string }[]).map((cd) => cd.title);

    it('reports its kind and answers a ping', async () => {
      expect(store.kind).to.equal(factory.name);
      await store.ping();
    });

    it('gives back an inserted CD exactly, in the public shape', async () => {
      const input = makeCdInput({
        title: 'Blue',
        artist: 'Joni Mitchell',
        genre: 'Folk',
        releaseYear: 1971,
      });
      const id = randomUUID();
      const created = (await store.insert(newRecord(input, id, T0))).cd;
      const expected: Cd = {
        id,
        ...input,
        createdAt: T0.toISOString(),
        updatedAt: T0.toISOString(),
      };
      expect(created).to.deep.equal(expected);
      const stored = await read(id);
      expect(stored).to.deep.equal(expected);
      expect(Object.keys(stored as Cd)).to.deep.equal(PUBLIC_KEYS);
    });

    it('keeps any text as given, quotes and symbols included', async () => {
      const odd = `O'Brien "%_.*" \\ (a+)+ [x] ; DROP TABLE cds; -- ☃ 𝄞`;
      const created = await add({ title: odd, artist: odd, genre: odd });
      expect(await read(created.id)).to.deep.equal(created);
    });

    it('gives back exactly every text the CD schema accepts', async () => {
      for (const [index, text] of UNUSUAL_TEXT.entries()) {
        const label = JSON.stringify(text.slice(0, 40));
        const created = await add({ title: text, artist: text, genre: text });
        expect(created.title, label).to.equal(text);
        expect(await read(created.id), label).to.deep.equal(created);
        const found = await list({ artist: text });
        expect(found.items, label).to.deep.equal([created]);
        const renamed = UNUSUAL_TEXT[(index + 1) % UNUSUAL_TEXT.length] as string;
        const updated = await change(created.id, changesFor({ genre: renamed }, T1));
        expect(updated?.genre, label).to.equal(renamed);
        expect(await read(created.id), label).to.deep.equal(updated);
        expect(await store.delete(created.id)).to.equal(true);
      }
    });

    it('answers undefined for an unknown id', async () => {
      expect(await read(randomUUID())).to.equal(undefined);
    });

    it('counts its CDs', async () => {
      expect(await store.count()).to.equal(0);
      await add();
      await add();
      expect(await store.count()).to.equal(2);
    });

    describe('update', () => {
      it('changes only the given fields, and updatedAt', async () => {
        const created = await add({ title: 'Old', artist: 'A', genre: 'G', releaseYear: 1990 });
        const updated = await change(
          created.id,
          changesFor({ title: 'New', releaseYear: 1991 }, T1),
        );
        expect(updated).to.deep.equal({
          ...created,
          title: 'New',
          releaseYear: 1991,
          updatedAt: T1.toISOString(),
        });
        expect(await read(created.id)).to.deep.equal(updated);
      });

      it('changes each field on its own', async () => {
        const created = await add();
        const changes = { title: 'T2', artist: 'A2', genre: 'G2', releaseYear: 1850 } as const;
        let expected: Cd = created;
        for (const [field, value] of Object.entries(changes)) {
          const updated = await change(created.id, changesFor({ [field]: value }, T1));
          expected = { ...expected, [field]: value, updatedAt: T1.toISOString() };
          expect(updated).to.deep.equal(expected);
        }
      });

      it('moves a CD between filters when its artist or genre changes', async () => {
        const created = await add({ artist: 'Before', genre: 'Old Genre' });
        await change(created.id, changesFor({ artist: 'After', genre: 'New Genre' }, T1));
        expect((await list({ artist: 'before' })).total).to.equal(0);
        expect((await list({ artist: 'AFTER' })).total).to.equal(1);
        expect((await list({ genre: 'old genre' })).total).to.equal(0);
        expect((await list({ genre: 'new genre' })).total).to.equal(1);
      });

      it('answers undefined for an unknown id and creates nothing', async () => {
        expect(await change(randomUUID(), changesFor({ title: 'X' }, T1))).to.equal(undefined);
        expect(await store.count()).to.equal(0);
      });
    });

    describe('versions and conditional writes', () => {
      const rename = (title: string) => changesFor({ title }, T1);
      /** The error a promise rejects with (fails when it resolves). */
      const rejection = async (promise: Promise<unknown>) =>
        promise.then(
          (value) => expect.fail(`resolved with ${JSON.stringify(value)}`),
          (error: unknown) => error,
        );

      it('keeps version 1 for a new CD and one more with each update, as get reads it', async () => {
        const created = await store.insert(newRecord(makeCdInput(), randomUUID(), T0));
        expect(created.version).to.equal(1);
        expect(await store.get(created.cd.id)).to.deep.equal(created);
        for (const version of [2, 3]) {
          const updated = await store.update(created.cd.id, rename(`v${version}`));
          expect(updated?.version).to.equal(version);
          expect(await store.get(created.cd.id)).to.deep.equal(updated);
        }
      });

      it('updates a CD at an expected version, one of a list, and moves it on', async () => {
        const { id } = await add();
        expect((await store.update(id, rename('one'), { in: [1] }))?.version).to.equal(2);
        expect((await store.update(id, rename('two'), { in: [7, 2, 9] }))?.version).to.equal(3);
        expect((await read(id))?.title).to.equal('two');
      });

      it('refuses, changing nothing, a write at a version the CD is not at', async () => {
        const { id } = await add({ title: 'Kept' });
        await store.update(id, rename('Now'));
        const before = await store.get(id);
        for (const expected of [
          { in: [1] },
          { in: [3, 4] },
          { in: [] },
          { notIn: [2] },
          { notIn: [1, 2] },
          { in: [2], notIn: [2] },
          { in: [1], notIn: [3] },
        ]) {
          const label = JSON.stringify(expected);
          expect(
            await rejection(store.update(id, rename('Lost'), expected)),
            label,
          ).to.be.an.instanceOf(VersionMismatch);
          expect(await rejection(store.delete(id, expected)), label).to.be.an.instanceOf(
            VersionMismatch,
          );
        }
        expect(await store.get(id)).to.deep.equal(before);
        expect(await store.delete(id, { in: [2], notIn: [1, 3] })).to.equal(true);
        expect(await store.get(id)).to.equal(undefined);
      });

      it('updates a CD at none of the versions a condition excludes, with or without versions it needs', async () => {
        const { id } = await add();
        expect((await store.update(id, rename('one'), { notIn: [2, 3] }))?.version).to.equal(2);
        const both = { in: [2, 5], notIn: [1, 3] };
        expect((await store.update(id, rename('two'), both))?.version).to.equal(3);
        expect((await store.update(id, rename('three'), { notIn: [] }))?.version).to.equal(4);
        expect((await read(id))?.title).to.equal('three');
      });

      it('answers a conditional write to an unknown id as missing, not as a version mismatch', async () => {
        for (const condition of [{ in: [1] }, { notIn: [1] }]) {
          expect(await store.update(randomUUID(), rename('X'), condition)).to.equal(undefined);
          expect(await store.delete(randomUUID(), condition)).to.equal(false);
        }
        expect(await store.count()).to.equal(0);
      });

      for (const [what, condition] of [
        ['at the same version', { in: [1] }],
        ['excluding the version the other makes', { notIn: [2] }],
      ] as const) {
        it(`lets exactly one of two concurrent writes ${what} through`, async () => {
          const { id } = await add();
          const outcomes = await Promise.allSettled([
            store.update(id, rename('first'), condition),
            store.update(id, rename('second'), condition),
          ]);
          const fulfilled = outcomes.filter((outcome) => outcome.status === 'fulfilled');
          const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
          expect(fulfilled).to.have.length(1);
          expect(refused.map((outcome) => outcome.reason)).to.satisfy((errors: unknown[]) =>
            errors.every((error) => error instanceof VersionMismatch),
          );
          const stored = await store.get(id);
          expect(stored?.version).to.equal(2);
          expect(stored?.cd.title).to.equal(fulfilled[0]?.value?.cd.title);
        });
      }
    });

    describe('delete', () => {
      it('removes the CD once', async () => {
        const created = await add();
        const kept = await add();
        expect(await store.delete(created.id)).to.equal(true);
        expect(await read(created.id)).to.equal(undefined);
        expect(await store.delete(created.id)).to.equal(false);
        expect(await read(kept.id)).to.deep.equal(kept);
        expect(await store.count()).to.equal(1);
      });
    });

    describe('list', () => {
      it('is empty with a total of 0 when there is nothing', async () => {
        expect(await list()).to.deep.equal({
          items: [],
          total: 0,
          totalAtLeast: false,
          next: undefined,
        });
      });

      it('orders by title then id by default', async function () {
        skipWhereDiffers(this, factory, 'stringOrder');
        await add({ title: 'b' });
        await add({ title: 'C' });
        await add({ title: 'a' });
        const twins = [
          await add({ title: 'Same' }),
          await add({ title: 'Same' }),
          await add({ title: 'Same' }),
        ];
        const page = await list();
        expect(page.total).to.equal(6);
        const items = page.items as Cd[];
        expect(items.map((cd) => cd.title)).to.deep.equal(['C', 'Same', 'Same', 'Same', 'a', 'b']);
        expect(items.slice(1, 4).map((cd) => cd.id)).to.deep.equal(
          twins.map((cd) => cd.id).sort(byCodePoint),
        );
        expect(Object.keys(items[0] as Cd)).to.deep.equal(PUBLIC_KEYS);
      });

      it('filters by artist and genre, case-insensitively and trimmed, exactly', async () => {
        await add({ title: '1', artist: 'Linkin Park', genre: 'Nu Metal' });
        await add({ title: '2', artist: 'LINKIN PARK', genre: 'Rock' });
        await add({ title: '3', artist: 'Linkin Park Tribute', genre: 'Nu Metal' });
        await add({ title: '4', artist: 'Björk', genre: 'Électronique' });
        expect(await titles({ artist: '  linkin park ' })).to.deep.equal(['1', '2']);
        expect(await titles({ genre: 'NU METAL' })).to.deep.equal(['1', '3']);
        expect(await titles({ artist: 'linkin park', genre: 'nu metal' })).to.deep.equal(['1']);
        expect(await titles({ artist: 'BJÖRK', genre: 'ÉLECTRONIQUE' })).to.deep.equal(['4']);
        expect(await titles({ artist: 'linkin' })).to.deep.equal([]);
      });

      it('matches characters of regular expressions and SQL literally', async () => {
        const artists = ['A%', 'AB', 'A_', 'A.*', "O'Brien", 'a+b', '(x)', '[abc]', '\\d', '^$'];
        for (const artist of artists) await add({ title: artist, artist, genre: artist });
        for (const artist of artists) {
          expect(await titles({ artist }), artist).to.deep.equal([artist]);
          expect(await titles({ genre: artist }), artist).to.deep.equal([artist]);
        }
        for (const pattern of ['%', 'A%%', '_B', '.*', 'A.', "' OR '1'='1", '.+', 'a.b']) {
          expect(await titles({ artist: pattern }), pattern).to.deep.equal([]);
        }
      });

      it('keeps the CDs released before a year', async () => {
        await add({ title: 'old', releaseYear: 1969 });
        await add({ title: 'edge', releaseYear: 1970 });
        await add({ title: 'new', releaseYear: 1990 });
        expect(await titles({ before: 1970 })).to.deep.equal(['old']);
        expect(await titles({ before: 1971 })).to.deep.equal(['edge', 'old']);
        expect(await titles({ before: 1800 })).to.deep.equal([]);
      });

      it('combines every filter with AND', async () => {
        await add({ title: 'match', artist: 'X', genre: 'Y', releaseYear: 1980 });
        await add({ title: 'too new', artist: 'X', genre: 'Y', releaseYear: 2000 });
        await add({ title: 'other genre', artist: 'X', genre: 'Z', releaseYear: 1980 });
        await add({ title: 'other artist', artist: 'W', genre: 'Y', releaseYear: 1980 });
        expect(await titles({ artist: 'x', genre: 'y', before: 1990 })).to.deep.equal(['match']);
      });

      it('gives only titles with fields=title', async () => {
        await add({ title: 'One' });
        await add({ title: 'Two' });
        const page = await list({ fields: 'title' });
        expect(page).to.deep.include({ items: [{ title: 'One' }, { title: 'Two' }], total: 2 });
      });

      it('sorts by title, artist or releaseYear, either way, ties by title then id (reversed too)', async () => {
        const cds = [
          await add({ title: 'm', artist: 'Zed', releaseYear: 1990 }),
          await add({ title: 'a', artist: 'Abe', releaseYear: 2000 }),
          await add({ title: 'z', artist: 'Abe', releaseYear: 1990 }),
          await add({ title: 'k', artist: 'Moe', releaseYear: 1970 }),
          await add({ title: 'k', artist: 'Moe', releaseYear: 1970 }),
        ];
        const tie = (a: Cd, b: Cd) => byCodePoint(a.title, b.title) || byCodePoint(a.id, b.id);
        const expectations: Record<string, (a: Cd, b: Cd) => number> = {
          title: tie,
          '-title': (a, b) => tie(b, a),
          artist: (a, b) => byCodePoint(a.artist, b.artist) || tie(a, b),
          '-artist': (a, b) => byCodePoint(b.artist, a.artist) || tie(b, a),
          releaseYear: (a, b) => a.releaseYear - b.releaseYear || tie(a, b),
          '-releaseYear': (a, b) => b.releaseYear - a.releaseYear || tie(b, a),
        };
        for (const [sort, compare] of Object.entries(expectations)) {
          const ids = ((await list({ sort })).items as Cd[]).map((cd) => cd.id);
          expect(ids, sort).to.deep.equal([...cds].sort(compare).map((cd) => cd.id));
        }
      });

      it('pages through every match once, with the total of matches', async () => {
        for (let i = 0; i < 7; i++)
          await add({ title: `same ${i % 2}`, genre: i < 5 ? 'Paged' : 'Other' });
        const all = ((await list({ genre: 'paged' })).items as Cd[]).map((cd) => cd.id);
        expect(all).to.have.length(5);
        const seen: string[] = [];
        for (let offset = 0; offset < 5; offset += 2) {
          const page = await list({ genre: 'paged', limit: 2, offset });
          expect(page.total).to.equal(5);
          seen.push(...(page.items as Cd[]).map((cd) => cd.id));
        }
        expect(seen).to.deep.equal(all);
        expect(await list({ genre: 'paged', offset: 5 })).to.deep.include({
          items: [],
          total: 5,
          next: undefined,
        });
      });

      // Keyset pages compare the sort key with $gt/$lt. The emulator compares strings by bytes
      // there but sorts them with localeCompare, so on a text sort its pages could skip or
      // repeat CDs where mongod's (code point order for both) do not: these tests page by
      // year, ties by lower-case ASCII titles and by id, which both orders agree on.
      it('pages by cursor to the end: every match once, in order, the same total on each page', async () => {
        for (let i = 0; i < 11; i++) {
          await add({
            title: `t${i % 3}`,
            genre: i < 9 ? 'Paged' : 'Other',
            releaseYear: 1990 + (i % 2),
          });
        }
        for (const sort of ['releaseYear', '-releaseYear']) {
          for (const fields of [undefined, 'title' as const]) {
            const all = await list({ genre: 'paged', sort, limit: 100, fields });
            expect(all.items, sort).to.have.length(9);
            const seen: unknown[] = [];
            let after: string | undefined;
            let pages = 0;
            do {
              const page = await list({ genre: 'paged', sort, limit: 2, fields, cursor: after });
              expect(page.total).to.equal(9);
              seen.push(...page.items);
              after = page.next && encodeCursor(sort, page.next);
              pages += 1;
            } while (after);
            expect(pages, sort).to.equal(5);
            expect(seen, `${sort} ${fields}`).to.deep.equal(all.items);
          }
        }
      });

      it('summarizes every page as its list does, by offset and by cursor, without its CDs', async () => {
        for (let i = 0; i < 13; i++) {
          await add({
            title: `t${i % 4}`,
            genre: i < 10 ? 'Paged' : 'Other',
            releaseYear: 1990 + (i % 3),
          });
        }
        for (const sort of ['title', '-releaseYear', 'releaseYear']) {
          for (const filters of [{}, { genre: 'paged' }, { genre: 'paged', before: 1992 }]) {
            for (const limit of [1, 2, 3, 20]) {
              for (const offset of [0, 1, 5, 12, 14]) {
                const query = buildListQuery({ ...filters, sort, limit, offset });
                const { items, ...summary } = await store.list(query);
                expect(await store.summarize(query), `${sort} ${limit} @${offset}`).to.deep.equal(
                  summary,
                );
              }
              let cursor: string | undefined;
              do {
                const query = buildListQuery({ ...filters, sort, limit, cursor });
                const { items, ...summary } = await store.list(query);
                expect(
                  await store.summarize(query),
                  `${sort} ${limit} after ${cursor}`,
                ).to.deep.equal(summary);
                cursor = summary.next && encodeCursor(sort, summary.next);
              } while (cursor);
            }
          }
        }
      });

      it('has no next page after the last CD, and a next one while more follow', async () => {
        const cds = [await add({ releaseYear: 2001 }), await add({ releaseYear: 2002 })];
        const first = await list({ sort: 'releaseYear', limit: 1 });
        expect(first.next).to.deep.equal([2001, cds[0]?.title, cds[0]?.id]);
        const second = await list({
          sort: 'releaseYear',
          limit: 1,
          cursor: encodeCursor('releaseYear', first.next ?? []),
        });
        expect((second.items as Cd[]).map((cd) => cd.id)).to.deep.equal([cds[1]?.id]);
        expect(second.next).to.equal(undefined);
        expect((await list({ sort: 'releaseYear', limit: 2 })).next).to.equal(undefined);
      });

      it('counts a range or two filters exactly up to the limit, then says "at least"', async function () {
        this.timeout(60_000);
        await store.seedOnce(
          Array.from({ length: COUNT_LIMIT + 2 }, (_, i) =>
            newRecord(
              makeCdInput({ genre: 'Many', releaseYear: 1960 + (i % 2) }),
              randomUUID(),
              T0,
            ),
          ),
        );
        await add({ genre: 'Few', releaseYear: 1950 });
        const exact = await list({ genre: 'few', before: 2000, limit: 1 });
        expect([exact.total, exact.totalAtLeast]).to.deep.equal([1, false]);
        const capped = await list({ genre: 'many', before: 2000, limit: 1 });
        expect([capped.total, capped.totalAtLeast]).to.deep.equal([COUNT_LIMIT, true]);
        const year = await list({ before: 1961, limit: 1 });
        expect([year.total, year.totalAtLeast]).to.deep.equal([COUNT_LIMIT / 2 + 2, false]);
        // No filter, or one equality: exact at any size.
        const all = await list({ limit: 1 });
        expect([all.total, all.totalAtLeast]).to.deep.equal([COUNT_LIMIT + 3, false]);
        const genre = await list({ genre: 'many', limit: 1 });
        expect([genre.total, genre.totalAtLeast]).to.deep.equal([COUNT_LIMIT + 2, false]);
      });
    });

    describe('seedOnce', () => {
      const records = (n: number) =>
        Array.from({ length: n }, () => newRecord(makeCdInput(), randomUUID(), T0));

      it('loads the sample on the first start of an empty store, and never again', async () => {
        expect(await store.seedOnce(records(3))).to.equal(3);
        expect(await store.count()).to.equal(3);
        expect(await store.seedOnce(records(3))).to.equal(0);
        await store.close();
        const reopened = await handle.reopen();
        expect(await reopened.seedOnce(records(3))).to.equal(0);
        expect(await reopened.count()).to.equal(3);
      });

      it('does not seed a store that already holds CDs', async () => {
        await add();
        expect(await store.seedOnce(records(3))).to.equal(0);
        expect(await store.count()).to.equal(1);
      });

      it('keeps nothing of a load that fails, and seeds at the next start', async () => {
        const failing = function* () {
          yield* records(1002); // more than one of MongoDB's batches (1,000)
          throw new Error('the seed file changed while it was read');
        };
        let failed: unknown;
        await store.seedOnce(failing()).catch((error) => {
          failed = error;
        });
        expect(String(failed)).to.include('changed while it was read');
        expect(await store.count()).to.equal(0);
        expect(await store.seedOnce(records(3))).to.equal(3);
      });

      it('does not seed again after everything was deleted', async () => {
        const [first] = records(1);
        await store.seedOnce([first as ReturnType<typeof newRecord>]);
        await store.delete(first?.id as string);
        expect(await store.seedOnce(records(2))).to.equal(0);
        expect(await store.count()).to.equal(0);
      });
    });

    it('keeps everything across a close and a reopen', async () => {
      const created = [await add(), await add()];
      const updated = await change(created[0]?.id as string, changesFor({ genre: 'Changed' }, T1));
      await store.close();
      const reopened = await handle.reopen();
      expect((await reopened.get(created[0]?.id as string))?.cd).to.deep.equal(updated);
      expect((await reopened.get(created[1]?.id as string))?.cd).to.deep.equal(created[1]);
      expect((await reopened.list(buildListQuery({ genre: 'changed' }))).total).to.equal(1);
    });
  });
}
