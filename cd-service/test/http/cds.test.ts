import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Response } from 'supertest';
import { createApp } from '../../src/app.js';
import { COUNT_LIMIT, encodeCursor, orderFor, sortKeyOf } from '../../src/cd/query.js';
import { newRecord } from '../../src/cd/records.js';
import type { Cd, CdInput } from '../../src/cd/schema.js';
import type { CdStore } from '../../src/store/store.js';
import {
  byCodePoint,
  captureLogger,
  detailFields,
  expectErrorBody,
  makeCdInput,
  request,
} from '../helpers.js';
import { describeEachStore, type StoreHandle, skipWhereDiffers } from '../stores.js';

const PUBLIC_KEYS = ['id', 'title', 'artist', 'genre', 'releaseYear', 'createdAt', 'updatedAt'];
const TOKEN = 's3cret-token';

/** A clock that moves on by a second each time it is read. */
function steppingClock(start = '2030-06-15T12:00:00.000Z') {
  let time = Date.parse(start);
  return () => {
    time += 1000;
    return new Date(time);
  };
}

describeEachStore('HTTP API /cds', (factory) => {
  let handle: StoreHandle;
  let store: CdStore;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;

  beforeEach(async () => {
    handle = await factory.open();
    store = handle.store;
    app = createApp({ store, now: steppingClock() }).callback();
  });
  afterEach(async () => {
    await handle.dispose();
  });

  const post = (body: unknown) =>
    request(app)
      .post('/cds')
      .send(body as object);
  const create = async (overrides: Partial<CdInput> = {}): Promise<Cd> =>
    (await post(makeCdInput(overrides)).expect(201)).body;

  /** Asserts that a bad request changed nothing. */
  const expectUnchanged = async (before: number) => expect(await store.count()).to.equal(before);

  describe('POST /cds', () => {
    it('creates a CD: 201, Location, the CD with a service id and timestamps', async () => {
      const res = await post({
        title: ' Blue ',
        artist: 'Joni Mitchell',
        genre: 'Folk',
        releaseYear: 1971,
      })
        .expect(201)
        .expect('Content-Type', /application\/json/);
      expect(Object.keys(res.body)).to.deep.equal(PUBLIC_KEYS);
      expect(res.body).to.include({
        title: 'Blue',
        artist: 'Joni Mitchell',
        genre: 'Folk',
        releaseYear: 1971,
      });
      expect(res.body.id).to.match(/^[0-9a-f-]{36}$/);
      expect(res.body.createdAt).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(res.body.updatedAt).to.equal(res.body.createdAt);
      expect(res.headers.location).to.equal(`/cds/${res.body.id}`);
      const read = await request(app).get(`/cds/${res.body.id}`).expect(200);
      expect(read.body).to.deep.equal(res.body);
    });

    it('gives every CD its own id', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 5; i++) ids.add((await create()).id);
      expect(ids.size).to.equal(5);
    });

    it('accepts the edges: 1800, next year, 200 characters', async () => {
      await create({ releaseYear: 1800 });
      await create({ releaseYear: 2031 }); // the clock says 2030
      await create({ title: 'x'.repeat(200) });
    });

    it('answers 400 with details for missing or invalid fields, and stores nothing', async () => {
      const cases: [Record<string, unknown>, string[]][] = [
        [{ artist: 'a', genre: 'g', releaseYear: 2000 }, ['title']],
        [{ title: 't', genre: 'g', releaseYear: 2000 }, ['artist']],
        [{ title: 't', artist: 'a', releaseYear: 2000 }, ['genre']],
        [{ title: 't', artist: 'a', genre: 'g' }, ['releaseYear']],
        [makeCdInput({ title: '' }), ['title']],
        [makeCdInput({ title: '   ' }), ['title']],
        [makeCdInput({ artist: 'x'.repeat(201) }), ['artist']],
        [{ ...makeCdInput(), genre: 7 }, ['genre']],
        [makeCdInput({ releaseYear: 1799 }), ['releaseYear']],
        [makeCdInput({ releaseYear: 2032 }), ['releaseYear']],
        [makeCdInput({ releaseYear: 1999.5 }), ['releaseYear']],
        [{ ...makeCdInput(), releaseYear: '1999' }, ['releaseYear']],
        [{}, ['title', 'artist', 'genre', 'releaseYear']],
      ];
      for (const [body, fields] of cases) {
        const res = await post(body);
        expectErrorBody(res, 400);
        expect(detailFields(res.body), JSON.stringify(body)).to.have.members(fields);
        for (const detail of res.body.details)
          expect(detail.message).to.be.a('string').and.not.equal('');
      }
      await expectUnchanged(0);
    });

    it('answers 400 for unknown fields and for an id or timestamps in the body', async () => {
      for (const extra of ['colour', 'id', 'createdAt', 'updatedAt', '_id', 'artistKey']) {
        const res = await post({ ...makeCdInput(), [extra]: 'x' });
        expectErrorBody(res, 400);
        expect(detailFields(res.body), extra).to.deep.equal([extra]);
      }
      await expectUnchanged(0);
    });

    it('answers 400 for a JSON body that is not an object', async () => {
      for (const raw of ['[]', JSON.stringify([makeCdInput()]), '"text"', '42', 'null', 'true']) {
        const res = await request(app)
          .post('/cds')
          .set('Content-Type', 'application/json')
          .send(raw);
        expectErrorBody(res, 400);
      }
      await expectUnchanged(0);
    });

    it('answers 400 for malformed JSON', async () => {
      for (const raw of ['{', '{"title": }', "{'title': 'x'}", '{"title":"a",}']) {
        const res = await request(app)
          .post('/cds')
          .set('Content-Type', 'application/json')
          .send(raw);
        expectErrorBody(res, 400);
        expect(res.body.error).to.match(/JSON/);
      }
      await expectUnchanged(0);
    });

    it('answers 400 when there is no body at all', async () => {
      expectErrorBody(await request(app).post('/cds'), 400);
      const empty = await request(app)
        .post('/cds')
        .set('Content-Type', 'application/json')
        .send('');
      expectErrorBody(empty, 400);
      await expectUnchanged(0);
    });

    it('answers 415 for a body that is not JSON', async () => {
      const text = await request(app)
        .post('/cds')
        .set('Content-Type', 'text/plain')
        .send('title=x');
      expectErrorBody(text, 415);
      const form = await request(app).post('/cds').type('form').send(makeCdInput());
      expectErrorBody(form, 415);
      const missingType = await request(app)
        .post('/cds')
        .set('Content-Type', '')
        .send(Buffer.from(JSON.stringify(makeCdInput())));
      expectErrorBody(missingType, 415);
      await expectUnchanged(0);
    });

    it('answers 413 for a body over 100 KB', async () => {
      const res = await post({ ...makeCdInput(), padding: 'x'.repeat(101 * 1024) });
      expectErrorBody(res, 413);
      await expectUnchanged(0);
      // Just under the limit, the body is read and then refused for its unknown field.
      expectErrorBody(await post({ ...makeCdInput(), padding: 'x'.repeat(90 * 1024) }), 400);
    });

    it('lets __proto__ and constructor keys do no harm', async () => {
      const proto = await request(app)
        .post('/cds')
        .set('Content-Type', 'application/json')
        .send(
          '{"title":"t","artist":"a","genre":"g","releaseYear":2000,"__proto__":{"polluted":true}}',
        );
      expectErrorBody(proto, 400);
      const constructorKey = await post({ ...makeCdInput(), constructor: 'x' });
      expectErrorBody(constructorKey, 400);
      expect(detailFields(constructorKey.body)).to.deep.equal(['constructor']);
      const prototype = await request(app)
        .post('/cds')
        .set('Content-Type', 'application/json')
        .send(
          '{"title":"t","artist":"a","genre":"g","releaseYear":2000,"constructor":{"prototype":{"polluted":true}}}',
        );
      expectErrorBody(prototype, 400);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
      expect(Object.prototype).not.to.have.property('polluted');
      await expectUnchanged(0);
    });
  });

  describe('GET /cds/:id', () => {
    it('gives the CD, exactly as created', async () => {
      const cd = await create();
      expect((await request(app).get(`/cds/${cd.id}`).expect(200)).body).to.deep.equal(cd);
    });

    it('accepts the id in upper case', async () => {
      const cd = await create();
      expect(
        (await request(app).get(`/cds/${cd.id.toUpperCase()}`).expect(200)).body,
      ).to.deep.equal(cd);
    });

    it('answers 404 for an unknown id', async () => {
      const res = await request(app).get(`/cds/${randomUUID()}`);
      expectErrorBody(res, 404);
    });

    it('answers 400 for a malformed id', async () => {
      const good = randomUUID();
      for (const id of [
        'abc',
        '123',
        `${good}x`,
        good.slice(1),
        'null',
        '%27%20OR%201%3D1',
        '..%2F..%2Fetc',
      ]) {
        const res = await request(app).get(`/cds/${id}`);
        expectErrorBody(res, 400);
        expect(detailFields(res.body), id).to.deep.equal(['id']);
      }
    });
  });

  describe('GET /cds', () => {
    it('answers a bare array, with X-Total-Count and no Link when all fits', async () => {
      const res = await request(app).get('/cds').expect(200).expect('Content-Type', /json/);
      expect(res.body).to.deep.equal([]);
      expect(res.headers['x-total-count']).to.equal('0');
      expect(res.headers.link).to.equal(undefined);
      const a = await create({ title: 'B side' });
      const b = await create({ title: 'A side' });
      const all = await request(app).get('/cds').expect(200);
      expect(all.body).to.deep.equal([b, a]);
      expect(all.headers['x-total-count']).to.equal('2');
    });

    it('filters by artist and genre, case-insensitively, trimmed, exactly', async () => {
      const match = await create({ artist: 'Linkin Park', genre: 'Nu Metal', title: 'Meteora' });
      await create({ artist: 'Linkin Park Tribute', genre: 'Nu Metal' });
      await create({ artist: 'Linkin Park', genre: 'Rock' });
      const res = await request(app)
        .get('/cds')
        .query({ artist: '  LINKIN park ', genre: 'nu METAL' })
        .expect(200);
      expect(res.body).to.deep.equal([match]);
      expect(res.headers['x-total-count']).to.equal('1');
    });

    it('matches characters of regular expressions and SQL literally', async () => {
      const special = [
        'A%',
        'A_',
        'A.*',
        "O'Brien",
        '(a+)+',
        '[x]',
        'a|b',
        '\\',
        '"; DROP TABLE cds; --',
      ];
      for (const artist of special) await create({ artist, genre: artist, title: artist });
      await create({ artist: 'AB', title: 'AB' });
      for (const artist of special) {
        const res = await request(app).get('/cds').query({ artist }).expect(200);
        expect(
          res.body.map((cd: Cd) => cd.title),
          artist,
        ).to.deep.equal([artist]);
        const byGenre = await request(app).get('/cds').query({ genre: artist }).expect(200);
        expect(
          byGenre.body.map((cd: Cd) => cd.title),
          artist,
        ).to.deep.equal([artist]);
      }
      for (const pattern of ['%', 'A%25', '_B', '.*', '.+', "' OR '1'='1"]) {
        const res = await request(app).get('/cds').query({ artist: pattern }).expect(200);
        expect(res.body, pattern).to.deep.equal([]);
      }
      expect(await store.count()).to.equal(special.length + 1);
    });

    it('keeps the CDs released before a year, combined with the other filters', async () => {
      await create({ title: 'old', artist: 'X', releaseYear: 1965 });
      await create({ title: 'edge', artist: 'X', releaseYear: 1970 });
      await create({ title: 'other', artist: 'Y', releaseYear: 1960 });
      const res = await request(app).get('/cds?before=1970&artist=x').expect(200);
      expect(res.body.map((cd: Cd) => cd.title)).to.deep.equal(['old']);
    });

    it('gives only titles with fields=title', async () => {
      await create({ title: 'One' });
      await create({ title: 'Two' });
      const res = await request(app).get('/cds?fields=title').expect(200);
      expect(res.body).to.deep.equal([{ title: 'One' }, { title: 'Two' }]);
    });

    it('sorts by title, artist or releaseYear, ascending or with - descending', async () => {
      await create({ title: 'b', artist: 'Zed', releaseYear: 1990 });
      await create({ title: 'a', artist: 'Abe', releaseYear: 2000 });
      await create({ title: 'c', artist: 'Moe', releaseYear: 1980 });
      const order = async (sort: string) =>
        (await request(app).get(`/cds?sort=${sort}&fields=title`).expect(200)).body.map(
          (cd: { title: string }) => cd.title,
        );
      expect(await order('title')).to.deep.equal(['a', 'b', 'c']);
      expect(await order('-title')).to.deep.equal(['c', 'b', 'a']);
      expect(await order('artist')).to.deep.equal(['a', 'c', 'b']);
      expect(await order('-artist')).to.deep.equal(['b', 'c', 'a']);
      expect(await order('releaseYear')).to.deep.equal(['c', 'b', 'a']);
      expect(await order('-releaseYear')).to.deep.equal(['a', 'b', 'c']);
    });

    /** The cursor of the next page after `cd` in the order of `sort`, as the service makes it. */
    const cursorAfter = (cd: Cd, sort = 'title') =>
      encodeCursor(sort, sortKeyOf(cd as unknown as Record<string, unknown>, orderFor(sort)));

    it('pages with limit, X-Total-Count and Link next by cursor keeping the query, to the end', async () => {
      const created: Cd[] = [];
      for (let i = 0; i < 5; i++)
        created.push(await create({ title: `Track ${i}`, genre: 'Paged' }));
      await create({ genre: 'Elsewhere' });
      const first = await request(app).get('/cds?genre=paged&limit=2').expect(200);
      expect(first.body.map((cd: Cd) => cd.title)).to.deep.equal(['Track 0', 'Track 1']);
      expect(first.headers['x-total-count']).to.equal('5');
      expect(first.headers['x-total-count-relation']).to.equal('eq');
      expect(first.headers.link).to.equal(
        `</cds?genre=paged&cursor=${cursorAfter(created[1] as Cd)}&limit=2>; rel="next"`,
      );

      const seen: string[] = [];
      let next: string | undefined = '/cds?genre=paged&limit=2';
      let pages = 0;
      while (next) {
        const res: Response = await request(app).get(next).expect(200);
        seen.push(...res.body.map((cd: Cd) => cd.id));
        next = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1];
        pages += 1;
      }
      expect(pages).to.equal(3);
      expect(seen).to.deep.equal(created.map((cd) => cd.id));

      // After an offset: next by cursor, prev by offset.
      const middle = await request(app).get('/cds?genre=paged&limit=2&offset=2').expect(200);
      expect(middle.headers.link).to.equal(
        `</cds?genre=paged&cursor=${cursorAfter(created[3] as Cd)}&limit=2>; rel="next", </cds?genre=paged&offset=0&limit=2>; rel="prev"`,
      );
      const past = await request(app).get('/cds?genre=paged&offset=10').expect(200);
      expect(past.body).to.deep.equal([]);
      expect(past.headers['x-total-count']).to.equal('5');
    });

    it('never links to a negative offset: prev starts at 0 when offset is smaller than limit', async () => {
      const created: Cd[] = [];
      for (let i = 0; i < 5; i++)
        created.push(await create({ title: `Track ${i}`, genre: 'Paged' }));
      const cases: [string, string][] = [
        [
          'limit=3&offset=1',
          `</cds?genre=paged&cursor=${cursorAfter(created[3] as Cd)}&limit=3>; rel="next", </cds?genre=paged&offset=0&limit=3>; rel="prev"`,
        ],
        ['limit=1000&offset=2', '</cds?genre=paged&offset=0&limit=1000>; rel="prev"'],
        ['offset=4', '</cds?genre=paged&offset=0&limit=100>; rel="prev"'],
        // Past the end: prev is the last page, not another empty one.
        ['limit=2&offset=10', '</cds?genre=paged&offset=3&limit=2>; rel="prev"'],
      ];
      for (const [query, link] of cases) {
        const res = await request(app).get(`/cds?genre=paged&${query}`).expect(200);
        expect(res.headers.link, query).to.equal(link);
        for (const [, offset] of (res.headers.link ?? '').matchAll(/offset=(-?\d+)/g))
          expect(Number(offset), query).to.be.at.least(0);
      }
    });

    it('answers 400 for an invalid query value, naming the parameter', async () => {
      const cases: [string, string][] = [
        ['before=abc', 'before'],
        ['before=19.5', 'before'],
        ['fields=bogus', 'fields'],
        ['limit=0', 'limit'],
        ['limit=1001', 'limit'],
        ['limit=ten', 'limit'],
        ['offset=-1', 'offset'],
        ['offset=10001', 'offset'],
        ['cursor=%2F', 'cursor'],
        ['cursor=bm90IGpzb24', 'cursor'],
        ['sort=genre', 'sort'],
        ['sort=', 'sort'],
        ['artist=', 'artist'],
        ['artist=a&artist=b', 'artist'],
        ['limit=1&limit=2', 'limit'],
        ['colour=red', 'colour'],
        ['__proto__=x', '__proto__'],
        ['constructor=x', 'constructor'],
      ];
      for (const [query, field] of cases) {
        const res = await request(app).get(`/cds?${query}`);
        expectErrorBody(res, 400);
        expect(detailFields(res.body), query).to.deep.equal([field]);
      }
      const unknown = await request(app).get('/cds?colour=red');
      expect(unknown.body.details[0].message).to.include(
        'artist, genre, before, fields, sort, limit, offset, cursor',
      );
    });

    it('reads numbers in any JSON spelling, and names the range of `before` past either end', async () => {
      const plain = await request(app).get('/cds?before=2000&limit=5').expect(200);
      const spelled = await request(app).get('/cds?before=2e3&limit=5.0').expect(200);
      expect(spelled.body).to.deep.equal(plain.body);
      for (const before of ['9007199254740992', '-9007199254740992', '1799', '10000']) {
        const res = await request(app).get(`/cds?before=${before}`);
        expectErrorBody(res, 400);
        expect(res.body.details, before).to.deep.equal([
          { field: 'before', message: 'must be an integer from 1800 to 9999' },
        ]);
      }
    });

    it('refuses an offset past 10,000 with 400, naming the cursor to use instead', async () => {
      await request(app).get('/cds?offset=10000').expect(200);
      const res = await request(app).get('/cds?offset=10001&limit=5');
      expectErrorBody(res, 400);
      expect(res.body.details).to.deep.equal([
        {
          field: 'offset',
          message:
            'must be an integer from 0 to 10000; to go further, follow `Link: rel="next"`, whose `cursor` parameter starts the next page at the same cost on every page',
        },
      ]);
    });

    it('refuses a cursor of the wrong shape, one of another sort, or one with an offset, with 400', async () => {
      const cd = await create({ title: 'x' });
      const good = cursorAfter(cd);
      await request(app).get(`/cds?cursor=${good}`).expect(200);
      for (const query of [
        `cursor=${Buffer.from('["title","x","not an id"]').toString('base64url')}`,
        `cursor=${Buffer.from('{"title":"x"}').toString('base64url')}`,
        `cursor=${good}&sort=-title`,
        `cursor=${good}x`,
        `cursor=${good}&offset=0`,
      ]) {
        const res = await request(app).get(`/cds?${query}`);
        expectErrorBody(res, 400);
        expect(detailFields(res.body), query).to.deep.equal(['cursor']);
      }
    });

    it('follows next links to the last page by every sort, each CD once, in order', async () => {
      // Texts on which byte order and localeCompare agree: on a text sort the MongoDB emulator
      // pages with $gt/$lt by bytes but sorts by locale, which could skip or repeat other texts.
      for (let i = 0; i < 7; i++)
        await create({ title: `T${i % 3}`, artist: `A${i % 2}`, releaseYear: 1990 + (i % 4) });
      for (const sort of ['title', '-title', 'artist', '-artist', 'releaseYear', '-releaseYear']) {
        const all = (await request(app).get(`/cds?sort=${sort}`).expect(200)).body;
        const seen: Cd[] = [];
        let next: string | undefined = `/cds?sort=${sort}&limit=3`;
        while (next) {
          const res: Response = await request(app).get(next).expect(200);
          expect(res.headers['x-total-count'], sort).to.equal('7');
          seen.push(...res.body);
          next = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1];
        }
        expect(seen, sort).to.deep.equal(all);
      }
    });

    it('caps the count of a range past the count limit and says so in X-Total-Count-Relation', async function () {
      this.timeout(60_000);
      await store.seedOnce(
        Array.from({ length: COUNT_LIMIT + 1 }, () =>
          newRecord(makeCdInput({ genre: 'Jazz', releaseYear: 1955 }), randomUUID(), new Date()),
        ),
      );
      const capped = await request(app).get('/cds?genre=jazz&before=1960&limit=1').expect(200);
      expect(capped.headers['x-total-count']).to.equal(String(COUNT_LIMIT));
      expect(capped.headers['x-total-count-relation']).to.equal('gte');
      expect(capped.headers.link).to.match(/rel="next"$/);
      const exact = await request(app).get('/cds?genre=jazz&limit=1').expect(200);
      expect(exact.headers['x-total-count']).to.equal(String(COUNT_LIMIT + 1));
      expect(exact.headers['x-total-count-relation']).to.equal('eq');
    });

    it('links prev from the offset asked, not from a total counted only up to the limit', async function () {
      this.timeout(60_000);
      await store.seedOnce(
        Array.from({ length: COUNT_LIMIT + 30 }, () =>
          newRecord(makeCdInput({ releaseYear: 1990 }), randomUUID(), new Date()),
        ),
      );
      const res = await request(app).get('/cds?before=2000&offset=1020&limit=5').expect(200);
      expect(res.body).to.have.length(5);
      expect(res.headers['x-total-count']).to.equal(String(COUNT_LIMIT));
      expect(res.headers['x-total-count-relation']).to.equal('gte');
      const link = String(res.headers.link);
      expect(link).to.match(/rel="next"/);
      const prev = /<([^>]+)>; rel="prev"/.exec(link)?.[1];
      expect(prev).to.equal('/cds?before=2000&offset=1015&limit=5');
      const tail = await request(app).get('/cds?before=2000&offset=1000&limit=30').expect(200);
      const previous = await request(app).get(String(prev)).expect(200);
      expect(previous.body).to.deep.equal(tail.body.slice(15, 20));
    });
  });

  describe('PUT /cds/:id', () => {
    it('changes any subset of the fields and updatedAt, nothing else', async () => {
      const cd = await create({ title: 'Old', artist: 'A', genre: 'G', releaseYear: 1990 });
      const res = await request(app).put(`/cds/${cd.id}`).send({ title: ' New ' }).expect(200);
      expect(res.body).to.deep.include({ ...cd, title: 'New', updatedAt: res.body.updatedAt });
      expect(res.body.createdAt).to.equal(cd.createdAt);
      expect(Date.parse(res.body.updatedAt)).to.be.greaterThan(Date.parse(cd.updatedAt));
      expect((await request(app).get(`/cds/${cd.id}`).expect(200)).body).to.deep.equal(res.body);

      const all = { title: 'T', artist: 'Other', genre: 'Jazz', releaseYear: 1960 };
      const full = await request(app).put(`/cds/${cd.id}`).send(all).expect(200);
      expect(full.body).to.include(all);
    });

    it('takes back a CD as read, changed, with If-Match: the fields the service sets ignored when they are as stored', async () => {
      const read = await request(app).get(`/cds/${(await create({ title: 'Old' })).id}`);
      const whole = { ...read.body, title: 'New' };
      const res = await request(app)
        .put(`/cds/${whole.id}`)
        .set('If-Match', read.headers.etag ?? '')
        .send(whole)
        .expect(200);
      expect(res.body).to.deep.equal({ ...whole, updatedAt: res.body.updatedAt });
      expect(res.body.updatedAt).to.not.equal(read.body.updatedAt);
      // Any other value of theirs is a 400 naming the field, and changes nothing.
      const kept = res.body;
      for (const field of ['id', 'createdAt', 'updatedAt']) {
        const other =
          field === 'id' ? randomUUID() : new Date(Date.parse(kept[field]) - 1000).toISOString();
        const refused = await request(app)
          .put(`/cds/${kept.id}`)
          .send({ ...kept, title: 'Lost', [field]: other });
        expectErrorBody(refused, 400);
        expect(refused.body.details, field).to.deep.equal([
          {
            field,
            message:
              'is set by the service and cannot be changed: send it as read, or leave it out',
          },
        ]);
      }
      // The stale updatedAt of an earlier read is another value.
      const stale = await request(app).put(`/cds/${kept.id}`).send(whole);
      expect(detailFields(stale.body)).to.deep.equal(['updatedAt']);
      expect((await request(app).get(`/cds/${kept.id}`).expect(200)).body).to.deep.equal(kept);
    });

    it('moves the CD to the filters of its new artist and genre', async () => {
      const cd = await create({ artist: 'Before', genre: 'Old' });
      await request(app).put(`/cds/${cd.id}`).send({ artist: 'After', genre: 'New' }).expect(200);
      expect((await request(app).get('/cds?artist=before').expect(200)).body).to.deep.equal([]);
      expect(
        (await request(app).get('/cds?artist=AFTER&genre=new').expect(200)).body,
      ).to.have.length(1);
    });

    it('answers 400 for an empty update, unknown or service fields and invalid values', async () => {
      const cd = await create();
      const cases: [unknown, string[]][] = [
        [{}, ['body']],
        [{ colour: 'red' }, ['colour']],
        [{ id: randomUUID() }, ['id']],
        [{ createdAt: '2020-01-01T00:00:00.000Z' }, ['createdAt']],
        [{ title: '' }, ['title']],
        [{ releaseYear: 'new' }, ['releaseYear']],
        [{ title: 'ok', releaseYear: 3000 }, ['releaseYear']],
      ];
      for (const [body, fields] of cases) {
        const res = await request(app)
          .put(`/cds/${cd.id}`)
          .send(body as object);
        expectErrorBody(res, 400);
        expect(detailFields(res.body), JSON.stringify(body)).to.deep.equal(fields);
      }
      for (const raw of ['[]', '{"title":', '"x"']) {
        const res = await request(app)
          .put(`/cds/${cd.id}`)
          .set('Content-Type', 'application/json')
          .send(raw);
        expectErrorBody(res, 400);
      }
      expect((await request(app).get(`/cds/${cd.id}`).expect(200)).body).to.deep.equal(cd);
    });

    it('answers 415 for a body that is not JSON and 413 for one over 100 KB', async () => {
      const cd = await create();
      expectErrorBody(
        await request(app).put(`/cds/${cd.id}`).set('Content-Type', 'text/plain').send('x'),
        415,
      );
      expectErrorBody(
        await request(app)
          .put(`/cds/${cd.id}`)
          .send({ title: 'x'.repeat(120 * 1024) }),
        413,
      );
      expect((await request(app).get(`/cds/${cd.id}`).expect(200)).body).to.deep.equal(cd);
    });

    it('answers 404 for an unknown id and 400 for a malformed one, creating nothing', async () => {
      expectErrorBody(await request(app).put(`/cds/${randomUUID()}`).send({ title: 'x' }), 404);
      expectErrorBody(await request(app).put('/cds/nope').send({ title: 'x' }), 400);
      await expectUnchanged(0);
    });
  });

  describe('DELETE /cds/:id', () => {
    it('answers 204 with no body, then the CD is gone', async () => {
      const cd = await create();
      const kept = await create();
      const res = await request(app).delete(`/cds/${cd.id}`).expect(204);
      expect(res.text).to.equal('');
      expectErrorBody(await request(app).get(`/cds/${cd.id}`), 404);
      expectErrorBody(await request(app).delete(`/cds/${cd.id}`), 404);
      expect((await request(app).get('/cds').expect(200)).body).to.deep.equal([kept]);
    });

    it('answers 400 for a malformed id', async () => {
      expectErrorBody(await request(app).delete('/cds/42'), 400);
    });
  });

  describe('authorization with CD_API_TOKEN', () => {
    let secured: typeof app;
    beforeEach(() => {
      secured = createApp({ store, apiToken: TOKEN }).callback();
    });

    const NO_TOKEN = 'Bearer';
    const INVALID_TOKEN = 'Bearer error="invalid_token"';
    /** Each header that does not pass, and the challenge its 401 carries (RFC 6750 section 3). */
    const badHeaders: [string | undefined, string][] = [
      [undefined, NO_TOKEN],
      ['Bearer wrong', INVALID_TOKEN],
      [`Bearer ${TOKEN}x`, INVALID_TOKEN],
      [`Bearer ${TOKEN.slice(0, -1)}`, INVALID_TOKEN],
      [`Basic ${Buffer.from(`user:${TOKEN}`).toString('base64')}`, NO_TOKEN],
      [TOKEN, NO_TOKEN],
      ['Bearer', NO_TOKEN],
    ];

    it('answers 401 with WWW-Authenticate, invalid_token for a wrong token, and the JSON error to writes without the token', async () => {
      const cd = await create();
      for (const [header, challenge] of badHeaders) {
        const attempts = [
          request(secured).post('/cds').send(makeCdInput()),
          request(secured).put(`/cds/${cd.id}`).send({ title: 'changed' }),
          request(secured).delete(`/cds/${cd.id}`),
          request(secured).put('/cds/not-a-uuid').send({}),
          request(secured).post('/cds').set('Content-Type', 'text/plain').send('x'),
        ];
        for (const attempt of attempts) {
          if (header) attempt.set('Authorization', header);
          const res = await attempt;
          expectErrorBody(res, 401);
          expect(res.headers['www-authenticate'], header).to.equal(challenge);
          expect(res.body.error, header).to.match(
            challenge === NO_TOKEN ? /needs a bearer token/ : /token is not valid/,
          );
        }
      }
      expect(await store.count()).to.equal(1);
      expect((await request(secured).get(`/cds/${cd.id}`).expect(200)).body).to.deep.equal(cd);
    });

    it('lets writes with the token through, and reads without it', async () => {
      const auth = `Bearer ${TOKEN}`;
      const created = await request(secured)
        .post('/cds')
        .set('Authorization', auth)
        .send(makeCdInput())
        .expect(201);
      await request(secured)
        .put(`/cds/${created.body.id}`)
        .set('Authorization', auth)
        .send({ title: 'changed' })
        .expect(200);
      await request(secured).get('/cds').expect(200);
      await request(secured).get(`/cds/${created.body.id}`).expect(200);
      await request(secured).get('/healthz').expect(200);
      await request(secured)
        .delete(`/cds/${created.body.id}`)
        .set('Authorization', `bearer ${TOKEN}`)
        .expect(204);
    });

    it('leaves writes open when no token is set', async () => {
      await request(createApp({ store }).callback()).post('/cds').send(makeCdInput()).expect(201);
    });
  });

  describe('service behaviour', () => {
    it('GET /healthz reports the store and that it answers', async () => {
      await request(app)
        .get('/healthz')
        .expect(200, { status: 'ok', store: factory.name, writes: 'ok' });
    });

    it('GET /healthz answers 503 when the store does not answer', async () => {
      const failing: CdStore = {
        ...store,
        ping: () => Promise.reject(new Error('connection refused')),
      };
      const logger = captureLogger();
      const res = await request(createApp({ store: failing, logger }).callback())
        .get('/healthz')
        .expect(503);
      expect(res.body).to.deep.equal({ status: 'unavailable', store: factory.name, writes: 'ok' });
      expect(logger.lines.some((line) => line.level === 'error')).to.equal(true);
    });

    it('answers a database failure with a generic 500 and logs the cause', async () => {
      const cause = new Error('disk I/O error: /secret/path');
      const broken: CdStore = {
        ...store,
        list: () => Promise.reject(cause),
        insert: () => Promise.reject(cause),
      };
      const logger = captureLogger();
      const brokenApp = createApp({ store: broken, logger }).callback();
      for (const res of [
        await request(brokenApp).get('/cds'),
        await request(brokenApp).post('/cds').send(makeCdInput()),
      ]) {
        expectErrorBody(res, 500);
        expect(res.body).to.deep.equal({ error: 'Internal Server Error', status: 500 });
        expect(res.headers.location).to.equal(undefined);
      }
      const logged = logger.lines.filter((line) => line.level === 'error');
      expect(logged).to.have.length(2);
      expect(logged[0]).to.include({ message: 'unhandled error', method: 'GET', path: '/cds' });
      expect(String((logged[0]?.err as { message?: string } | undefined)?.message)).to.include(
        'disk I/O error',
      );
    });

    it('answers 500 when the database itself is gone', async () => {
      const logger = captureLogger();
      const gone = createApp({ store, logger }).callback();
      await store.close();
      expectErrorBody(await request(gone).get('/cds'), 500);
      expectErrorBody(await request(gone).post('/cds').send(makeCdInput()), 500);
      expect(logger.lines.filter((line) => line.level === 'error')).to.have.length(2);
    });

    it('answers an unknown path, under /cds or not, with the JSON 404 body: the service has no pages', async () => {
      for (const path of ['/nothing', '/cds/x/y'])
        expectErrorBody(await request(app).get(path), 404);
    });
  });

  it('sorts as the stores do: by code point', async function () {
    skipWhereDiffers(this, factory, 'stringOrder');
    for (const title of ['b', 'B', 'a', 'É', 'e']) await create({ title });
    const res = await request(app).get('/cds?fields=title').expect(200);
    expect(res.body.map((cd: { title: string }) => cd.title)).to.deep.equal(
      ['b', 'B', 'a', 'É', 'e'].sort(byCodePoint),
    );
  });
});
