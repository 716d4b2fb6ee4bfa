import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { Catalogue } from '../../src/catalogue/catalogue.js';
import { toSummary } from '../../src/catalogue/game.js';
import { request, seededCatalogue } from '../helpers.js';

/** The seed's games 70 times over (10,150): a genre holds more than the 1,000 answered whole. */
const games = Array.from({ length: 70 }, (_, copy) =>
  seededCatalogue.games.map((game) => ({ ...game, id: copy * 1000 + game.id })),
).flat();
const catalogue = new Catalogue(games, 'v1');

/** These games under a version of their own: as two processes started from one file. */
const versioned = (version: string) =>
  createApp({ catalogue: new Catalogue(games, version) }).callback();

const summaries = (list: readonly Parameters<typeof toSummary>[0][]) => list.map(toSummary);

/** Each list that grows with the catalogue, and what it answered when it was made whole. */
const STREAMED: [path: string, answer: () => unknown][] = [
  ['/api/games', () => summaries(catalogue.games)],
  [
    '/api/games?genre=rpg&sort=-rating',
    () => summaries(catalogue.search({ genre: 'rpg', sort: '-rating' }).games),
  ],
  [
    '/api/games/hidden-gems',
    () => catalogue.hiddenGems().map((g) => ({ ...toSummary(g), reviewCount: g.reviewCount })),
  ],
  ['/api/games/genre/RPG', () => summaries(catalogue.byGenre('RPG'))],
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

  it('answers a page asked with a limit, or a list of at most 1,000 games, whole', async () => {
    const whole = ['/api/games?q=super', `/api/games?offset=${games.length - 10}`];
    for (const path of ['/api/games?limit=5', '/api/games/genre/RPG?limit=2', ...whole]) {
      const res = await request(app).get(path).set('Accept-Encoding', 'identity').expect(200);
      expect(Number(res.headers['content-length'])).to.equal(Buffer.byteLength(res.text));
    }
  });
});
