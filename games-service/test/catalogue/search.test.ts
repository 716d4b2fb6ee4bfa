import { expect } from 'chai';
import { Catalogue, compareByRank } from '../../src/catalogue/catalogue.js';
import type { Game } from '../../src/catalogue/game.js';
import {
  compareCodePoints,
  type OrderKey,
  type SearchQuery,
  type SearchResult,
  SORT_KEYS,
  type SortKey,
} from '../../src/catalogue/search.js';
import { normalize } from '../../src/catalogue/word-index.js';
import { makeGame } from '../fixtures.js';

const ids = (result: SearchResult) => result.games.map((game) => game.id);

const words = (text: string) =>
  normalize(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
const wordsOfGame = new WeakMap<Game, string[]>();
function gameWords(game: Game): string[] {
  let own = wordsOfGame.get(game);
  if (!own) {
    own = words(`${game.title} ${game.developer}`);
    wordsOfGame.set(game, own);
  }
  return own;
}

/** The meaning of a search, written the slow and obvious way, to check the index against. */
function reference(games: readonly Game[], query: SearchQuery): SearchResult {
  const wanted = words(query.q ?? '');
  const matches = games.filter((game) => {
    return (
      wanted.every((word) => gameWords(game).some((w) => w.startsWith(word))) &&
      (!query.genre?.trim() ||
        game.genre.trim().toLowerCase() === query.genre.trim().toLowerCase()) &&
      (query.minRating === undefined || (game.rating !== null && game.rating >= query.minRating)) &&
      (query.year === undefined || game.releaseYear === query.year) &&
      (query.from === undefined || game.releaseYear >= query.from) &&
      (query.to === undefined || game.releaseYear <= query.to)
    );
  });
  matches.sort(query.sort ? referenceOrder(query.sort) : compareByRank);
  const offset = query.offset ?? 0;
  const limit = query.limit ?? matches.length;
  return { total: matches.length, games: matches.slice(offset, offset + limit) };
}

function referenceOrder(sort: OrderKey): (a: Game, b: Game) => number {
  const field = sort.replace('-', '') as 'rating' | 'title' | 'releaseYear' | 'reviewCount' | 'id';
  const sign = sort.startsWith('-') ? -1 : 1;
  return (a, b) => {
    const x = a[field];
    const y = b[field];
    if (x === null || y === null) return x === y ? a.id - b.id : x === null ? 1 : -1;
    const byField = typeof x === 'string' ? compareCodePoints(x, y as string) : x - (y as number);
    return sign * byField || a.id - b.id;
  };
}

/** A small deterministic generator (Park-Miller), so that big catalogues are the same each run. */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 16807) % 2147483647;
    return (state - 1) / 2147483646;
  };
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  return { next, pick };
}

const NAME_WORDS = ['Star', 'Quest', 'Dragon', 'Ōkami', 'Légende', 'Shadow', 'Zero', 'Hero'];
const STUDIOS = ['Nord Works', 'Café Games', 'Blue Fox', 'Studio Ñandú', 'Zero Point'];
const GENRES = ['Action', 'RPG', 'Puzzle', 'Racing', 'Horror', 'Sports'];

function generateGames(count: number, seed: number): Game[] {
  const { next, pick } = generator(seed);
  return Array.from({ length: count }, (_, index) => {
    const id = index + 1;
    return makeGame({
      id,
      title: `${pick(NAME_WORDS)}-${pick(NAME_WORDS)}: ${pick(NAME_WORDS)} ${id}`,
      developer: `${pick(STUDIOS)} ${id % 97}`,
      genre: pick(GENRES),
      releaseYear: 1980 + Math.floor(next() * 45),
      rating: next() < 0.1 ? null : Math.round(next() * 100) / 10,
      reviewCount: Math.floor(next() * 2000),
    });
  });
}

describe('Catalogue search', function () {
  this.timeout(20_000);
  const games = [
    makeGame({ id: 1, title: 'Pokémon Red', developer: 'Game Freak', genre: 'RPG' }),
    makeGame({ id: 2, title: 'Half-Life 2', developer: 'Valve', genre: 'Shooter' }),
    makeGame({ id: 3, title: 'Half-Life', developer: 'Valve', genre: 'Shooter' }),
    makeGame({ id: 4, title: 'Portal', developer: 'Valve', genre: 'Puzzle', releaseYear: 2007 }),
    makeGame({ id: 5, title: 'Halo: Combat Evolved', developer: 'Bungie', genre: 'shooter' }),
    makeGame({ id: 6, title: 'Ōkami', developer: 'Clover Studio', genre: 'Adventure' }),
    makeGame({ id: 7, title: 'The Witcher 3', developer: 'CD Projekt Red', genre: 'RPG' }),
  ];
  const search = new Catalogue(games);
  const find = (query: SearchQuery) => ids(search.search(query));

  describe('q', () => {
    it('ignores accents in titles and in the query', () => {
      expect(find({ q: 'pokemon' })).to.deep.equal([1]);
      expect(find({ q: 'Pokémon' })).to.deep.equal([1]);
      expect(find({ q: 'okami' })).to.deep.equal([6]);
      expect(find({ q: 'ŌKAMI' })).to.deep.equal([6]);
    });

    it('ignores case', () => {
      expect(find({ q: 'HALF' })).to.have.members([2, 3]);
      expect(find({ q: 'pOrTaL' })).to.deep.equal([4]);
    });

    it('matches word prefixes, not the middle of words', () => {
      expect(find({ q: 'hal' })).to.have.members([2, 3, 5]);
      expect(find({ q: 'li' })).to.have.members([2, 3]);
      expect(find({ q: 'alf' })).to.deep.equal([]);
      expect(find({ q: 'portals' })).to.deep.equal([]);
    });

    it('finds a word whole and as the start of longer words at once, each game once', () => {
      const index = new Catalogue([
        makeGame({ id: 1, title: 'Red Dead Red', developer: 'Rockstar' }),
        makeGame({ id: 2, title: 'Redemption', developer: 'Rock' }),
        makeGame({ id: 3, title: 'Bored', developer: 'Rocket' }),
      ]);
      const byId = (q: string) => ids(index.search({ q, sort: 'id' }));
      expect(byId('red')).to.deep.equal([1, 2]);
      expect(byId('rock red')).to.deep.equal([1, 2]);
      expect(byId('red RED re')).to.deep.equal([1, 2]);
      expect(byId('rocke')).to.deep.equal([3]);
    });

    it('finds several words where one starts a word of every game, in any order', () => {
      const index = new Catalogue([
        makeGame({ id: 1, title: 'The Witcher', developer: 'CD Projekt Studio' }),
        makeGame({ id: 2, title: 'The Witness', developer: 'Thekla Studio' }),
        makeGame({ id: 3, title: 'Theme Hospital', developer: 'Bullfrog Studio' }),
        makeGame({ id: 4, title: 'The Last of Us', developer: 'Naughty Dog Studio' }),
      ]);
      const byId = (q: string) => ids(index.search({ q, sort: 'id' }));
      expect(byId('the witcher')).to.deep.equal([1]);
      expect(byId('WITCHER the')).to.deep.equal([1]);
      expect(byId('studio wit')).to.deep.equal([1, 2]);
      expect(byId('th studio wit')).to.deep.equal([1, 2]);
      expect(byId('the studio')).to.deep.equal([1, 2, 3, 4]);
      expect(byId('studio the thek')).to.deep.equal([2]);
      expect(byId('the hosp')).to.deep.equal([3]);
      expect(byId('witcher hospital')).to.deep.equal([]);
      expect(byId('studio zzz')).to.deep.equal([]);
    });

    it('requires every query word to match', () => {
      expect(find({ q: 'half 2' })).to.deep.equal([2]);
      expect(find({ q: 'half portal' })).to.deep.equal([]);
      expect(find({ q: 'red' })).to.have.members([1, 7]);
      expect(find({ q: 'red poke' })).to.deep.equal([1]);
    });

    it('matches the developer, alone or together with the title', () => {
      expect(find({ q: 'valve' })).to.have.members([2, 3, 4]);
      expect(find({ q: 'valve port' })).to.deep.equal([4]);
      expect(find({ q: 'projekt witch' })).to.deep.equal([7]);
    });

    it('treats punctuation in the query as a word separator', () => {
      expect(find({ q: 'Half-Life: 2!' })).to.deep.equal([2]);
      expect(find({ q: '"halo",  combat…' })).to.deep.equal([5]);
    });

    it('does not filter on an empty or blank query', () => {
      for (const q of ['', '   ', '\t\n']) expect(find({ q })).to.have.length(games.length);
    });

    it('matches nothing for a query without a letter or digit (no word can start one)', () => {
      for (const q of ['!?-', '😀', ' - ']) expect(find({ q })).to.deep.equal([]);
    });
  });

  describe('filters', () => {
    const rated = [
      makeGame({ id: 1, genre: 'RPG', rating: 9.3, releaseYear: 1998 }),
      makeGame({ id: 2, genre: 'rpg', rating: 9.2, releaseYear: 1999 }),
      makeGame({ id: 3, genre: 'Racing', rating: null, releaseYear: 2000 }),
      makeGame({ id: 4, genre: 'Racing', rating: 5.0, releaseYear: 2001 }),
      makeGame({ id: 5, genre: 'Puzzle', rating: 9.9, releaseYear: 2001 }),
    ];
    const index = new Catalogue(rated);
    const filter = (query: SearchQuery) => ids(index.search(query)).sort();

    it('keeps one genre, matched case-insensitively', () => {
      expect(filter({ genre: 'RPG' })).to.deep.equal([1, 2]);
      expect(filter({ genre: ' racing ' })).to.deep.equal([3, 4]);
      expect(filter({ genre: 'Opera' })).to.deep.equal([]);
      expect(filter({ genre: '' })).to.have.length(5);
    });

    it('keeps games rated at least minRating, never unrated ones', () => {
      expect(filter({ minRating: 9.3 })).to.deep.equal([1, 5]);
      expect(filter({ minRating: 0 })).to.deep.equal([1, 2, 4, 5]);
      expect(filter({ minRating: 10 })).to.deep.equal([]);
    });

    it('keeps one release year', () => {
      expect(filter({ year: 2001 })).to.deep.equal([4, 5]);
      expect(filter({ year: 1990 })).to.deep.equal([]);
    });

    it('keeps an inclusive range of years, open on either side', () => {
      expect(filter({ from: 1999, to: 2000 })).to.deep.equal([2, 3]);
      expect(filter({ from: 2000 })).to.deep.equal([3, 4, 5]);
      expect(filter({ to: 1998 })).to.deep.equal([1]);
      expect(filter({ from: 2001, to: 1999 })).to.deep.equal([]);
      expect(filter({ year: 1999, from: 2000 })).to.deep.equal([]);
    });

    it('combines every condition', () => {
      expect(filter({ genre: 'racing', minRating: 1, from: 2000 })).to.deep.equal([4]);
      expect(find({ q: 'half', genre: 'SHOOTER', year: 2010 })).to.have.members([2, 3]);
      expect(find({ q: 'valve', genre: 'Shooter', minRating: 7 })).to.have.members([2, 3]);
      expect(find({ q: 'valve', from: 2007, to: 2007 })).to.deep.equal([4]);
    });
  });

  describe('sort', () => {
    const sortable = [
      makeGame({ id: 5, title: 'beta', rating: 8, releaseYear: 2001, reviewCount: 10 }),
      makeGame({ id: 1, title: 'Beta', rating: null, releaseYear: 2001, reviewCount: 30 }),
      makeGame({ id: 3, title: 'alpha', rating: 8, releaseYear: 1999, reviewCount: 10 }),
      makeGame({ id: 2, title: 'Beta', rating: 6.5, releaseYear: 2003, reviewCount: 20 }),
      makeGame({ id: 4, title: 'Échec', rating: null, releaseYear: 2001, reviewCount: 10 }),
      makeGame({ id: 6, title: 'Zulu', rating: 9.5, releaseYear: 1999, reviewCount: 20 }),
    ];
    const index = new Catalogue(sortable);
    const sorted = (sort?: OrderKey) => ids(index.search(sort ? { sort } : {}));

    it('puts the best first by default, as compareByRank does', () => {
      expect(sorted()).to.deep.equal([...sortable].sort(compareByRank).map((g) => g.id));
      expect(sorted()).to.deep.equal([6, 3, 5, 2, 1, 4]);
    });

    it('sorts titles by code point, ties by id, in both directions', () => {
      expect(sorted('title')).to.deep.equal([1, 2, 6, 3, 5, 4]);
      expect(sorted('-title')).to.deep.equal([4, 5, 3, 6, 1, 2]);
    });

    it('puts unrated games last in both directions, ties by id', () => {
      expect(sorted('rating')).to.deep.equal([2, 3, 5, 6, 1, 4]);
      expect(sorted('-rating')).to.deep.equal([6, 3, 5, 2, 1, 4]);
    });

    it('sorts by release year and review count, ties by id, in both directions', () => {
      expect(sorted('releaseYear')).to.deep.equal([3, 6, 1, 4, 5, 2]);
      expect(sorted('-releaseYear')).to.deep.equal([2, 1, 4, 5, 3, 6]);
      expect(sorted('reviewCount')).to.deep.equal([3, 4, 5, 2, 6, 1]);
      expect(sorted('-reviewCount')).to.deep.equal([1, 2, 6, 3, 4, 5]);
    });

    it('sorts ratings finer than a tenth and numbers of any size exactly', () => {
      const fine = new Catalogue([
        makeGame({ id: 1, rating: 7.25, reviewCount: Number.MAX_SAFE_INTEGER }),
        makeGame({ id: 2, rating: 7.2, reviewCount: 0 }),
        makeGame({ id: 3, rating: null, reviewCount: 2 ** 40 }),
        makeGame({ id: 4, rating: 7.25, reviewCount: 2 ** 40 }),
      ]);
      const order = (sort: OrderKey) => ids(fine.search({ sort }));
      expect(order('rating')).to.deep.equal([2, 1, 4, 3]);
      expect(order('-rating')).to.deep.equal([1, 4, 2, 3]);
      expect(order('reviewCount')).to.deep.equal([2, 3, 4, 1]);
      expect(order('-reviewCount')).to.deep.equal([1, 3, 4, 2]);
    });

    it('sorts by id, the order of the API when no sort is asked', () => {
      expect(sorted('id')).to.deep.equal([1, 2, 3, 4, 5, 6]);
      expect(ids(index.search({ sort: 'id', q: 'beta' }))).to.deep.equal([1, 2, 5]);
    });

    it('sorts filtered results the same way as all of them', () => {
      for (const sort of [...SORT_KEYS, 'id' as const]) {
        const filtered = ids(index.search({ sort, from: 2000 }));
        const wanted = sorted(sort).filter((id) => [5, 1, 2, 4].includes(id));
        expect(filtered, sort).to.deep.equal(wanted);
      }
    });

    it('orders titles past U+FFFF after U+E000..U+FFFF, as code points do', () => {
      const wide = new Catalogue([
        makeGame({ id: 1, title: '\u{1F600} smile' }),
        makeGame({ id: 2, title: '\uFF21 wide A' }),
        makeGame({ id: 3, title: 'a' }),
      ]);
      expect(ids(wide.search({ sort: 'title' }))).to.deep.equal([3, 2, 1]);
      expect(ids(wide.search({ sort: '-title' }))).to.deep.equal([1, 2, 3]);
    });

    it('lists its sort keys, each with both directions', () => {
      expect(SORT_KEYS).to.have.length(8);
      for (const key of SORT_KEYS.filter((k) => !k.startsWith('-')))
        expect(SORT_KEYS).to.include(`-${key}`);
    });
  });

  describe('paging', () => {
    it('returns the page and the total before paging', () => {
      const all = find({ sort: 'title' });
      const page = search.search({ sort: 'title', limit: 2, offset: 3 });
      expect(page.total).to.equal(games.length);
      expect(ids(page)).to.deep.equal(all.slice(3, 5));
    });

    it('pages filtered results the same way', () => {
      const all = find({ q: 'valve' });
      const page = search.search({ q: 'valve', limit: 2, offset: 1 });
      expect(page.total).to.equal(3);
      expect(ids(page)).to.deep.equal(all.slice(1, 3));
    });

    it('returns an empty page past the end or for a zero limit, with the total', () => {
      expect(search.search({ offset: 50 })).to.deep.equal({ total: games.length, games: [] });
      expect(search.search({ q: 'half', limit: 0 })).to.deep.equal({ total: 2, games: [] });
    });

    it('returns everything when no limit is given', () => {
      expect(search.search({}).games).to.have.length(games.length);
    });
  });

  it('answers an empty result when nothing matches', () => {
    expect(search.search({ q: 'zzz' })).to.deep.equal({ total: 0, games: [] });
    expect(search.search({ q: 'half', genre: 'Puzzle' })).to.deep.equal({ total: 0, games: [] });
    expect(new Catalogue([]).search({ sort: 'title' })).to.deep.equal({ total: 0, games: [] });
  });

  it('rejects a query no caller should send', () => {
    expect(() => search.search({ sort: 'price' as SortKey })).to.throw(RangeError);
    expect(() => search.search({ limit: -1 })).to.throw(RangeError);
    expect(() => search.search({ offset: 1.5 })).to.throw(RangeError);
    expect(() => search.search({ minRating: Number.NaN })).to.throw(RangeError);
  });

  it('agrees with a plain filter and sort on many generated queries', () => {
    const generated = generateGames(2_000, 7);
    const index = new Catalogue(generated);
    const { next, pick } = generator(11);
    const prefixes = ['st', 'QUEST', 'drag', 'okami', 'lég', 'cafe', 'nandu', 'ze', '1', '42', 'x'];
    for (let i = 0; i < 400; i++) {
      const query: SearchQuery = {};
      if (next() < 0.7) query.q = [pick(prefixes), next() < 0.5 ? pick(prefixes) : ''].join(' ');
      if (next() < 0.3) query.genre = pick(GENRES).toUpperCase();
      if (next() < 0.3) query.minRating = Math.round(next() * 100) / 10;
      if (next() < 0.2) query.year = 1980 + Math.floor(next() * 45);
      if (next() < 0.2) query.from = 1980 + Math.floor(next() * 45);
      if (next() < 0.2) query.to = 1980 + Math.floor(next() * 45);
      if (next() < 0.7) query.sort = next() < 0.1 ? 'id' : pick(SORT_KEYS);
      if (next() < 0.5) query.limit = Math.floor(next() * 30);
      if (next() < 0.5) query.offset = Math.floor(next() * 30);
      const expected = reference(generated, query);
      const actual = index.search(query);
      expect(actual.total, JSON.stringify(query)).to.equal(expected.total);
      expect(ids(actual), JSON.stringify(query)).to.deep.equal(ids(expected));
    }
  });

  it('stops at the page and gives what a full scan gives, first page to last, in each order', () => {
    // A word in a third of the titles, one letter (words of all kinds), several words, and
    // words with a filter: the page is found by walking the order from either end, or by
    // sorting the matches, and the total is the exact count of the matches.
    const generated = generateGames(20_000, 5);
    const index = new Catalogue(generated);
    const shapes: SearchQuery[] = [
      { q: 'quest' },
      { q: 's' },
      { q: 'z' },
      { q: 'st her 1' },
      { q: 'dragon', genre: 'rpg', minRating: 3 },
      { q: 'zero', from: 1990, to: 2000 },
    ];
    for (const shape of shapes) {
      for (const sort of [...SORT_KEYS, 'id' as const, undefined]) {
        const all = reference(generated, { ...shape, sort });
        const { total } = all;
        for (const offset of [0, 20, Math.floor(total / 2), Math.max(0, total - 20), total]) {
          const query: SearchQuery = { ...shape, sort, offset, limit: 20 };
          const actual = index.search(query);
          expect(actual.total, JSON.stringify(query)).to.equal(total);
          expect(ids(actual), JSON.stringify(query)).to.deep.equal(
            ids({ total, games: all.games.slice(offset, offset + 20) }),
          );
        }
      }
    }
  });

  describe('on 100,000 games', () => {
    let big: Game[];
    let index: Catalogue;

    before(function () {
      this.timeout(60_000); // generating and indexing 100,000 games, on a busy machine
      big = generateGames(100_000, 3);
      index = new Catalogue(big);
    });

    it('finds the few games a selective query asks for, in order', () => {
      const queries: SearchQuery[] = [
        { q: 'quest 4242', limit: 20 },
        { q: 'nandu 77', genre: 'rpg', minRating: 5, limit: 20 },
        { q: 'légende 999', sort: '-releaseYear', limit: 20 },
        { year: 1990, genre: 'Horror', minRating: 9.8, sort: 'title', limit: 20 },
        { q: 'shadow zero', from: 2001, to: 2001, genre: 'Puzzle', sort: 'rating', offset: 3 },
      ];
      for (const query of queries) {
        const expected = reference(big, query);
        const actual = index.search(query);
        expect(expected.total, JSON.stringify(query)).to.be.within(1, 99);
        expect(actual.total, JSON.stringify(query)).to.equal(expected.total);
        expect(ids(actual), JSON.stringify(query)).to.deep.equal(ids(expected));
      }
    });

    it('orders the matches of a query by id (the API) and best first (the search page)', () => {
      const byId = index.search({ q: 'quest', sort: 'id', limit: 20 });
      expect(ids(byId)).to.deep.equal(ids(reference(big, { q: 'quest', sort: 'id', limit: 20 })));
      expect(ids(byId)).to.deep.equal([...ids(byId)].sort((a, b) => a - b));
      const ranked = index.search({ q: 'quest', limit: 24 });
      expect(ids(ranked)).to.deep.equal(ids(reference(big, { q: 'quest', limit: 24 })));
      expect(ranked.games).to.deep.equal([...ranked.games].sort(compareByRank));
    });

    it('pages the whole catalogue in each order', () => {
      for (const sort of [...SORT_KEYS, 'id' as const, undefined]) {
        const query: SearchQuery = { sort, limit: 20, offset: 50_000 };
        expect(ids(index.search(query)), String(sort)).to.deep.equal(ids(reference(big, query)));
      }
    });
  });
});
