import { compareByRank, genreKey } from './catalogue.js';
import type { Game } from './game.js';
import { lowerBound } from './lower-bound.js';
import { WordIndex } from './word-index.js';

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
  /** How many games match, before paging. */
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

type Compare = (a: Game, b: Game) => number;
type Field = 'rating' | 'title' | 'releaseYear' | 'reviewCount' | 'id';

/** Ascending by one field; unrated games are put last apart from this. */
const FIELD_ORDERS: Record<Field, Compare> = {
  rating: (a, b) => (a.rating ?? 0) - (b.rating ?? 0),
  title: (a, b) => compareCodePoints(a.title, b.title),
  releaseYear: (a, b) => a.releaseYear - b.releaseYear,
  reviewCount: (a, b) => a.reviewCount - b.reviewCount,
  id: (a, b) => a.id - b.id,
};

/** A sort key's order: its field either way, unrated games last either way, ties by id. */
function compareFor(key: OrderKey): Compare {
  const sign = key.startsWith('-') ? -1 : 1;
  const field = key.replace('-', '') as Field;
  const byField = FIELD_ORDERS[field];
  const unratedLast: Compare =
    field === 'rating' ? (a, b) => Number(a.rating === null) - Number(b.rating === null) : () => 0;
  return (a, b) => unratedLast(a, b) || sign * byField(a, b) || a.id - b.id;
}

/** One order of every game: `positions[i]` is the i-th game, `indexOf` its inverse. */
interface Order {
  positions: Uint32Array;
  indexOf: Uint32Array;
}

/** A condition of a query other than its words: the games it keeps, and a test for one game. */
interface Condition {
  positions: Uint32Array;
  keeps: (position: number) => boolean;
}

/**
 * The games, prepared once so that a search costs in proportion to the games it matches and
 * the page it returns, not to the size of the catalogue. Words go through a WordIndex; every
 * order is sorted once here, so a request never sorts the whole catalogue.
 *
 * A game is known by its position in the ranked order (best first, the order without `sort`).
 */
export class GameSearch {
  readonly #ranked: readonly Game[];
  readonly #words: WordIndex;
  readonly #orders: Record<OrderKey | 'rank', Order>;
  // What the filters read of each game, by position, kept together so that a scan stays in cache.
  readonly #years: Int32Array;
  /** NaN for an unrated game, which no comparison keeps. */
  readonly #ratings: Float64Array;
  readonly #genreOf: Uint32Array;
  readonly #genres = new Map<string, number>();
  readonly #byGenre: Uint32Array[];

  constructor(games: readonly Game[]) {
    this.#ranked = [...games].sort(compareByRank);
    this.#words = new WordIndex(this.#ranked);
    const all = Uint32Array.from(this.#ranked.keys());
    const orders: Partial<Record<OrderKey | 'rank', Order>> = {
      rank: { positions: all, indexOf: all },
    };
    for (const key of [...SORT_KEYS, 'id' as const]) {
      const compare = compareFor(key);
      orders[key] = withIndex(
        all.slice().sort((p, q) => compare(this.#ranked[p] as Game, this.#ranked[q] as Game)),
      );
    }
    this.#orders = orders as Record<OrderKey | 'rank', Order>;
    this.#years = Int32Array.from(this.#ranked, (game) => game.releaseYear);
    this.#ratings = Float64Array.from(this.#ranked, (game) => game.rating ?? Number.NaN);
    const genreLists: number[][] = [];
    this.#genreOf = Uint32Array.from(this.#ranked, (game, position) => {
      const key = genreKey(game.genre);
      let genre = this.#genres.get(key);
      if (genre === undefined) {
        genre = genreLists.push([]) - 1;
        this.#genres.set(key, genre);
      }
      genreLists[genre]?.push(position);
      return genre;
    });
    this.#byGenre = genreLists.map((list) => Uint32Array.from(list));
  }

  get size(): number {
    return this.#ranked.length;
  }

  search(query: SearchQuery = {}): SearchResult {
    checkQuery(query);
    const offset = query.offset ?? 0;
    const end = offset + (query.limit ?? Number.POSITIVE_INFINITY);
    const order = this.#orders[query.sort ?? 'rank'];
    const conditions = this.#conditions(query);
    if (conditions === undefined) return { total: 0, games: [] };
    const words = this.#words.matches(query.q);
    const keeps = (position: number) => conditions.every((condition) => condition.keeps(position));
    if (words !== undefined) return this.#page(order, words.filter(keeps), undefined, offset, end);
    // The condition that keeps fewest games gives the candidates; alone, it needs no test.
    const [fewest, ...others] = conditions.toSorted(
      (a, b) => a.positions.length - b.positions.length,
    );
    if (fewest === undefined)
      return { total: this.size, games: this.#gamesAt(order.positions.subarray(offset, end)) };
    const matches =
      others.length === 0
        ? fewest.positions
        : fewest.positions.filter((position) => others.every((other) => other.keeps(position)));
    return this.#page(order, matches, keeps, offset, end);
  }

  /** Each filter the query sets, or undefined when one of them keeps no game at all. */
  #conditions(query: SearchQuery): Condition[] | undefined {
    const conditions: Condition[] = [];
    if (query.genre !== undefined && query.genre.trim() !== '') {
      const genre = this.#genres.get(genreKey(query.genre));
      if (genre === undefined) return undefined;
      const positions = this.#byGenre[genre] as Uint32Array;
      conditions.push({ positions, keeps: (position) => this.#genreOf[position] === genre });
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
  #run(
    key: OrderKey,
    before: (position: number) => boolean,
    keeps: (position: number) => boolean,
  ): Uint32Array {
    const { positions } = this.#orders[key];
    const at = (index: number) => positions[index] as number;
    const first = lowerBound(positions.length, (index) => before(at(index)));
    const last = lowerBound(positions.length, (index) => keeps(at(index)), first);
    return positions.subarray(first, last);
  }

  /**
   * The page [offset, end) of the matches, in `order`. Either the matches are sorted by their
   * place in the order, or, when `keeps` tells a match and that looks at fewer games, the order
   * is walked from its start until the page is full.
   */
  #page(
    order: Order,
    matches: Uint32Array,
    keeps: ((position: number) => boolean) | undefined,
    offset: number,
    end: number,
  ): SearchResult {
    const total = matches.length;
    if (offset >= Math.min(end, total)) return { total, games: [] };
    const walked = (Math.min(end, total) * this.size) / total;
    if (keeps !== undefined && walked < total * Math.log2(total + 1)) {
      const games: Game[] = [];
      let seen = 0;
      for (const position of order.positions) {
        if (!keeps(position)) continue;
        if (seen++ >= offset) games.push(this.#ranked[position] as Game);
        if (seen === end) break;
      }
      return { total, games };
    }
    const indexes = matches.map((position) => order.indexOf[position] as number).sort();
    const page = indexes.subarray(offset, end).map((index) => order.positions[index] as number);
    return { total, games: this.#gamesAt(page) };
  }

  #gamesAt(positions: Uint32Array): Game[] {
    return Array.from(positions, (position) => this.#ranked[position] as Game);
  }
}

function withIndex(positions: Uint32Array): Order {
  const indexOf = new Uint32Array(positions.length);
  positions.forEach((position, index) => {
    indexOf[position] = index;
  });
  return { positions, indexOf };
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
