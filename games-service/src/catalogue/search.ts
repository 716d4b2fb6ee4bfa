import type { Game } from './game.js';
import type { GenreIndex } from './genre-index.js';
import { lowerBound } from './lower-bound.js';
import {
  gamesAt,
  identityOrder,
  type Order,
  orderByNumber,
  orderByText,
  reverseOrder,
} from './order.js';
import { WordIndex, type WordMatches } from './word-index.js';

export const SORT_KEYS = [
  'rating',
  '-rating',
  'title',
  '-title',
  'releaseYear',
  '-releaseYear',
  'reviewCount',
  '-reviewCount',
] as const;
export type SortKey = (typeof SORT_KEYS)[number];
/** The orders a search can be in: the sort keys, and by id (the API's order when none is asked). */
export type OrderKey = SortKey | 'id';

export interface SearchQuery {
  /** Words or word prefixes, each of which must start a word of the title or developer. */
  q?: string;
  /** Exact genre, case-insensitive. */
  genre?: string;
  /** Rated at least this; unrated games are left out when it is set. */
  minRating?: number;
  year?: number;
  /** Inclusive bounds on the release year. */
  from?: number;
  to?: number;
  /** Best first (compareByRank) when absent; ties always go by id ascending. */
  sort?: OrderKey;
  limit?: number;
  offset?: number;
}

export interface SearchResult {
  /** How many games match, before paging: always exact. */
  total: number;
  games: Game[];
}

/** Binary code-point order (plain `<` compares UTF-16 units, which differs past U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** Moves surrogates (which stand for code points past U+FFFF) above U+E000..U+FFFF. */
const codePointRank = (unit: number) =>
  unit < 0xd800 ? unit : unit < 0xe000 ? unit + 0x2000 : unit - 0x800;

/** Plain `<` gives code-point order unless a text holds a surrogate (a code point past U+FFFF). */
const compareUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const hasSurrogate = (text: string) => /[\uD800-\uDFFF]/.test(text);

/**
 * Every sort key's order, each field sorted once: its field either way, unrated games last
 * either way, ties by id. A descending order is its ascending one reversed, ties kept by id.
 */
function sortKeyOrders(games: readonly Game[]): Record<SortKey, Order> {
  const numbers = (value: (game: Game) => number) => {
    const keys = new Float64Array(games.length);
    for (let i = 0; i < games.length; i++) keys[i] = value(games[i] as Game);
    return keys;
  };
  const sameIn = (keys: ArrayLike<unknown>) => (p: number, q: number) => keys[p] === keys[q];
  // Ratings in tenths, as whole numbers (the seed's rule) when they all are; unrated games sort
  // last, above every rating, and stay last when reversed.
  const inTenths = games.every(({ rating }) => rating === null || Number.isInteger(rating * 10));
  const ratings = numbers(({ rating }) =>
    rating === null ? Number.POSITIVE_INFINITY : inTenths ? Math.round(rating * 10) : rating,
  );
  const unrated = games.filter((game) => game.rating === null).length;
  const titles = games.map((game) => game.title);
  const years = numbers((game) => game.releaseYear);
  const reviews = numbers((game) => game.reviewCount);
  const rating = orderByNumber(ratings);
  const title = orderByText(titles, titles.some(hasSurrogate) ? compareCodePoints : compareUnits);
  const releaseYear = orderByNumber(years);
  const reviewCount = orderByNumber(reviews);
  return {
    rating,
    '-rating': reverseOrder(rating, sameIn(ratings), unrated),
    title,
    '-title': reverseOrder(title, sameIn(titles)),
    releaseYear,
    '-releaseYear': reverseOrder(releaseYear, sameIn(years)),
    reviewCount,
    '-reviewCount': reverseOrder(reviewCount, sameIn(reviews)),
  };
}

/** Whether the game at a position meets a condition of the query. */
type Keeps = (position: number) => boolean;

/**
 * A game found by a word-by-word test costs about this many reads of its position once the
 * matches are all found: a walk longer than the matches over this finds them first.
 */
const TEST_COST = 4;

/** A condition of a query other than its words: the games it keeps, and a test for one game. */
interface Condition {
  positions: Uint32Array;
  keeps: Keeps;
}

/**
 * The games, prepared once so that a search costs in proportion to the games it matches and
 * the page it returns, not to the size of the catalogue. Words go through a WordIndex; every
 * order is sorted once here, so a request never sorts the whole catalogue.
 *
 * A game is known by its position in `games` (by id), as in the catalogue.
 */
export class GameSearch {
  readonly #games: readonly Game[];
  readonly #words: WordIndex;
  readonly #orders: Record<OrderKey | 'rank', Order>;
  // What the filters read of each game, by position, kept together so that a scan stays in cache.
  readonly #years: Int32Array;
  /** NaN for an unrated game, which no comparison keeps. */
  readonly #ratings: Float64Array;
  readonly #genres: GenreIndex;

  /**
   * @param games every game, by id
   * @param rank the order without `sort`: best first
   * @param genres the games of each genre
   */
  constructor(games: readonly Game[], rank: Order, genres: GenreIndex) {
    this.#games = games;
    this.#words = new WordIndex(games);
    this.#orders = { rank, id: identityOrder(games.length), ...sortKeyOrders(games) };
    this.#years = Int32Array.from(games, (game) => game.releaseYear);
    this.#ratings = Float64Array.from(games, (game) => game.rating ?? Number.NaN);
    this.#genres = genres;
  }

  /**
   * The page [offset, offset + limit) of the games the query finds, in its order, and how many
   * it finds in all. The total is exact: counting reads the postings of the query's words (or
   * a filter's games); the page is then found by walking the order
   * until it is full, from whichever end is nearer, or by sorting the matches when they are few.
   */
  search(query: SearchQuery = {}): SearchResult {
    checkQuery(query);
    const offset = query.offset ?? 0;
    const end = offset + (query.limit ?? Number.POSITIVE_INFINITY);
    const order = this.#orders[query.sort ?? 'rank'];
    const conditions = this.#conditions(query);
    if (conditions === undefined) return { total: 0, games: [] };
    const keeps = (position: number) => conditions.every((condition) => condition.keeps(position));
    const words = this.#words.matches(query.q, conditions.length > 0 ? keeps : undefined);
    if (words !== undefined) return this.#page(order, words, offset, end);
    // The condition that keeps fewest games gives the candidates; alone, it needs no test.
    const [fewest, ...others] = conditions.toSorted(
      (a, b) => a.positions.length - b.positions.length,
    );
    if (fewest === undefined) {
      const total = this.#games.length;
      return { total, games: gamesAt(this.#games, order.positions.subarray(offset, end)) };
    }
    const matches =
      others.length === 0
        ? fewest.positions
        : fewest.positions.filter((position) => others.every((other) => other.keeps(position)));
    return this.#page(
      order,
      { count: matches.length, positions: () => matches, has: keeps },
      offset,
      end,
    );
  }

  /** Each filter the query sets, or undefined when one of them keeps no game at all. */
  #conditions(query: SearchQuery): Condition[] | undefined {
    const conditions: Condition[] = [];
    if (query.genre !== undefined && query.genre.trim() !== '') {
      const genre = this.#genres.numberOf(query.genre);
      if (genre === undefined) return undefined;
      const { genreOf } = this.#genres;
      conditions.push({
        positions: this.#genres.positions(genre),
        keeps: (position) => genreOf[position] === genre,
      });
    }
    const minYear = Math.max(query.year ?? -Infinity, query.from ?? -Infinity);
    const maxYear = Math.min(query.year ?? Infinity, query.to ?? Infinity);
    if (minYear > maxYear) return undefined;
    if (minYear > -Infinity || maxYear < Infinity) {
      const years = this.#years;
      const keeps = (position: number) =>
        (years[position] as number) >= minYear && (years[position] as number) <= maxYear;
      const before = (position: number) => (years[position] as number) < minYear;
      conditions.push({ positions: this.#run('releaseYear', before, keeps), keeps });
    }
    const { minRating } = query;
    if (minRating !== undefined) {
      const ratings = this.#ratings;
      const keeps = (position: number) => (ratings[position] as number) >= minRating;
      conditions.push({ positions: this.#run('-rating', () => false, keeps), keeps });
    }
    return conditions;
  }

  /** The games that `keeps` accepts, where they lie together in an order after those `before`. */
  #run(key: OrderKey, before: Keeps, keeps: Keeps): Uint32Array {
    const { positions } = this.#orders[key];
    const at = (index: number) => positions[index] as number;
    const first = lowerBound(positions.length, (index) => before(at(index)));
    const last = lowerBound(positions.length, (index) => keeps(at(index)), first);
    return positions.subarray(first, last);
  }

  /**
   * The page [offset, end) of the matches, in `order`, by the cheapest of three ways: sort the
   * matches by their place in the order; or walk the order from its start, or from its end,
   * testing each game with `has`, and stop once the page is full. When every game matches, the
   * order itself is the answer, at any offset.
   */
  #page(order: Order, matches: WordMatches, offset: number, end: number): SearchResult {
    const total = matches.count;
    const last = Math.min(end, total);
    if (offset >= last) return { total, games: [] };
    if (total === this.#games.length) {
      return { total, games: gamesAt(this.#games, order.positions.subarray(offset, last)) };
    }
    const spread = this.#games.length / total;
    const fromStart = last * spread;
    const fromEnd = (total - offset) * spread;
    const walk = Math.min(fromStart, fromEnd);
    const sorting = total * Math.log2(total + 1);
    if (sorting < walk) {
      const indexes = matches
        .positions()
        .map((position) => order.indexOf[position] as number)
        .sort();
      const page = indexes.subarray(offset, last).map((index) => order.positions[index] as number);
      return { total, games: gamesAt(this.#games, page) };
    }
    if (walk * TEST_COST > total) matches.positions();
    const { has } = matches;
    const { positions } = order;
    const games: Game[] = [];
    // The walks stop at the order's ends too: a count that disagreed with `has` would otherwise
    // walk past them and never stop, holding the process.
    if (fromStart <= fromEnd) {
      let seen = 0;
      for (let i = 0; seen < last && i < positions.length; i++) {
        const position = positions[i] as number;
        if (has(position) && seen++ >= offset) games.push(this.#games[position] as Game);
      }
      return { total, games };
    }
    // Counted from the end, the page is the matches from total - last to total - offset.
    let seen = 0;
    for (let i = positions.length - 1; seen < total - offset && i >= 0; i--) {
      const position = positions[i] as number;
      if (has(position) && seen++ >= total - last) games.push(this.#games[position] as Game);
    }
    return { total, games: games.reverse() };
  }
}

function checkQuery(query: SearchQuery): void {
  if (query.sort !== undefined && query.sort !== 'id' && !SORT_KEYS.includes(query.sort))
    throw new RangeError(`unknown sort: ${query.sort}`);
  for (const field of ['limit', 'offset'] as const) {
    const value = query[field];
    if (value !== undefined && !(Number.isInteger(value) && value >= 0))
      throw new RangeError(`${field} must be a non-negative integer, not ${value}`);
  }
  for (const field of ['minRating', 'year', 'from', 'to'] as const) {
    const value = query[field];
    if (value !== undefined && !Number.isFinite(value))
      throw new RangeError(`${field} must be a finite number, not ${value}`);
  }
}
