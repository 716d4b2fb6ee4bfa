import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { Catalogue } from '../../src/catalogue/catalogue.js';
import { toSummary } from '../../src/catalogue/game.js';
import { request, seededCatalogue } from '../helpers.js';

/** The seed's games under a version of their own: as two processes started from one file. */
const versioned = (version: string) =>
  createApp({ catalogue: new Catalogue(seededCatalogue.games, version) }).callback();

const summaries = (games: readonly Parameters<typeof toSummary>[0][]) => games.map(toSummary);

/** Each list that grows with the catalogue, and what it answered when it was made whole. */
const STREAMED: [path: string, answer: () => unknown][] = [
  ['/api/games', () => summaries(seededCatalogue.games)],
  [
    '/api/games?genre=rpg&sort=-rating',
    () => summaries(seededCatalogue.search({ genre: 'rpg', sort: '-rating' }).games),
  ],
  ['/api/games?q=super', () => summaries(seededCatalogue.search({ q: 'super', sort: 'id' }).games)],
  [
    '/api/games/hidden-gems',
    () =>
      seededCatalogue.hiddenGems().map((g) => ({ ...toSummary(g), reviewCount: g.reviewCount })),
  ],
  ['/api/games/genre/RPG', () => summaries(seededCatalogue.byGenre('RPG'))],
];

describe('the lists that grow with the catalogue', () => {
  const app = versioned('v1');

  for (const [path, answer] of STREAMED) {
    it(`${path} is written as it is sent: the same list, under a weak tag of the version`, async () => {
      const res = await request(app).get(path).set('Accept-Encoding', 'identity').expect(200);
      expect(res.headers['content-type']).to.equal('application/json; charset=utf-8');
      expect(res.headers['content-length'], 'a stream has no length').to.equal(undefined);
      expect(res.headers['cache-control']).to.equal('public, max-age=300');
      expect(res.headers.etag).to.match(/^W\/"v1\.[\w-]{16}"$/);
      expect(res.text, 'the very bytes of the whole answer').to.equal(JSON.stringify(answer()));
      const again = await request(versioned('v1')).get(path).expect(200);
      expect(again.headers.etag, 'another app of the same version').to.equal(res.headers.etag);
      const other = await request(versioned('v2')).get(path).expect(200);
      expect(other.headers.etag, 'another version').to.not.equal(res.headers.etag);
      await request(app)
        .get(path)
        .set('If-None-Match', res.headers.etag ?? '')
        .expect(304);
    });

    it(`${path}: HEAD has the headers of GET, compressed or not`, async () => {
      for (const encoding of ['identity', 'gzip', 'br']) {
        const got = await request(app).get(path).set('Accept-Encoding', encoding).expect(200);
        const head = await request(app).head(path).set('Accept-Encoding', encoding).expect(200);
        for (const name of ['content-encoding', 'content-type', 'etag', 'cache-control', 'vary']) {
          expect(head.headers[name], `${encoding}: ${name}`).to.equal(got.headers[name]);
        }
        expect(head.headers['content-length']).to.equal(undefined);
        if (encoding !== 'identity') expect(got.headers['content-encoding']).to.equal(encoding);
      }
    });
  }

  it('gives each list its own tag', async () => {
    const tags = new Set();
    for (const [path] of STREAMED) tags.add((await request(app).get(path)).headers.etag);
    expect(tags.size).to.equal(STREAMED.length);
  });

  it('answers a page asked with a limit whole: it is bounded', async () => {
    for (const path of ['/api/games?limit=5', '/api/games/genre/RPG?limit=2']) {
      const res = await request(app).get(path).set('Accept-Encoding', 'identity').expect(200);
      expect(Number(res.headers['content-length'])).to.equal(Buffer.byteLength(res.text));
    }
  });
});
