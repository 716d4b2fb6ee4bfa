import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { Catalogue } from '../../src/catalogue/catalogue.js';
import type { Game } from '../../src/catalogue/game.js';
import { SEARCH_PAGE_SIZE } from '../../src/routes/pages.js';
import { makeGame } from '../fixtures.js';
import { request } from '../helpers.js';

const ADJECTIVES = [
  'Ancient',
  'Broken',
  'Crimson',
  'Dark',
  'Eternal',
  'Fallen',
  'Golden',
  'Hidden',
];
const COUNT = 3_000;

/**
 * Every title holds "quest"; two in three hold "saga"; one in a hundred "relic". Titles repeat
 * (ties go by id) and their order is far from the ids'.
 */
function titleOf(index: number): string {
  const scrambled = (index * 7919) % 1_000;
  const words = [ADJECTIVES[scrambled % ADJECTIVES.length], 'Quest', String(scrambled)];
  if (index % 3 !== 0) words.push('Saga');
  if (index % 100 === 42) words.push('Relic');
  return words.join(' ');
}

const games: Game[] = Array.from({ length: COUNT }, (_, index) =>
  makeGame({ id: index + 1, title: titleOf(index), developer: 'Test Studio' }),
);

/** The games whose title has `word`, by title then id, written the plain way. */
function byTitle(word: string): Game[] {
  return games
    .filter((game) => game.title.toLowerCase().split(' ').includes(word))
    .sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id));
}

const cardIds = (html: string) =>
  [...html.matchAll(/class="game-card__link" href="\/games\/(\d+)"/g)].map((m) => Number(m[1]));

describe('q results by title, for a word in every title, in most, and in a few', function () {
  this.timeout(20_000);
  const app = createApp({ catalogue: new Catalogue(games) }).callback();
  const words = ['quest', 'saga', 'relic'];

  it('has the shapes it means to test', () => {
    expect(byTitle('quest')).to.have.length(COUNT);
    expect(byTitle('saga')).to.have.length(2_000);
    expect(byTitle('relic')).to.have.length(30);
  });

  it('answers the API in title order, ties by id, on the first page, deep in, and on the last', async () => {
    for (const word of words) {
      const expected = byTitle(word);
      const total = expected.length;
      for (const offset of [0, 20, Math.floor(total / 2) + 7, total - 20, total - 5]) {
        const res = await request(app)
          .get(`/api/games?q=${word}&sort=title&offset=${offset}&limit=20`)
          .expect(200);
        const ids = res.body.map((game: { id: number }) => game.id);
        const what = `${word} at ${offset}`;
        expect(ids, what).to.deep.equal(expected.slice(offset, offset + 20).map((g) => g.id));
        expect(res.headers['x-total-count'], what).to.equal(String(total));
      }
      const reversed = await request(app)
        .get(`/api/games?q=${word}&sort=-title&offset=${total - 20}&limit=20`)
        .expect(200);
      const firstTitles = expected.slice(0, 20).map((g) => g.title);
      expect(reversed.body.map((g: Game) => g.title).reverse(), word).to.deep.equal(firstTitles);
    }
  });

  it('shows the search page in title order on the first page, deep in, and on the last', async () => {
    for (const word of words) {
      const expected = byTitle(word).map((game) => game.id);
      const pages = Math.ceil(expected.length / SEARCH_PAGE_SIZE);
      for (const page of new Set([1, 2, Math.ceil(pages / 2) + 1, pages])) {
        const res = await request(app).get(`/search?q=${word}&sort=title&page=${page}`).expect(200);
        const from = (page - 1) * SEARCH_PAGE_SIZE;
        expect(cardIds(res.text), `${word}, page ${page}`).to.deep.equal(
          expected.slice(from, from + SEARCH_PAGE_SIZE),
        );
        expect(res.text).to.include(`of ${expected.length.toLocaleString('en-US')}`);
      }
    }
  });
});
