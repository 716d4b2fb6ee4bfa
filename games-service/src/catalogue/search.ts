import { compareByRank } from './catalogue.js';
import type { Game } from './game.js';

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

/** Case- and accent-insensitive form of a text: "Pokémon" and "POKEMON" both become "pokemon". */
export function normalize(text: string): string {
  // Lower case both sides of NFKD: "İ" lowers to i + a combining dot, "㎒" decomposes to "MHz".
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** The distinct normalised words of a text; anything but a letter or a digit separates them. */
export function tokenize(text: string): string[] {
  return [...new Set(normalize(text).split(/[^\p{L}\p{N}]+/u))].filter((word) => word !== '');
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

const genreKey = (genre: string) => genre.trim().toLowerCase();

type Field = 'rating' | 'title' | 'releaseYear' | 'reviewCount' | 'id';
type Compare = (a: Game, b: Game) => number;

/** Ascending; unrated games last. */
const FIELD_ORDERS: Record<Field, Compare> = {
  rating: (a, b) => compareRatings(a.rating, b.rating),
  title: (a, b) => compareCodePoints(a.title, b.title),
  releaseYear: (a, b) => a.releaseYear - b.releaseYear,
  reviewCount: (a, b) => a.reviewCount - b.reviewCount,
  id: (a, b) => a.id - b.id,
};

function compareRatings(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a - b;
}

/** A precomputed order of all games: `positions[i]` is the i-th game, `indexOf[p]` its inverse. */
interface Order {
  positions: Uint32Array;
  indexOf: Uint32Array;
}

/** Where the candidates of a search come from: the smallest of the lists its conditions allow. */
interface Source {
  /** How many positions it holds, at most: known before they are gathered. */
  size: number;
  positions: () => Uint32Array;
  /** The query word (its index) that every game of this source is known to match. */
  word?: number;
}

/**
 * The games, indexed once so that a search costs in proportion to the games it looks at
 * (the smallest list one of its conditions allows), not to the size of the catalogue.
 *
 * Every game is known by its position in the ranked (best first) order. The normalised words
 * of titles and developers are kept sorted, so that the words a prefix starts form one range
 * found by binary search; the posting lists (positions of each word's games, ascending) lie
 * end to end in the same word order, so a prefix's postings are one slice.
 */
export class GameSearch {
  readonly #ranked: readonly Game[];
  readonly #all: Uint32Array;
  readonly #orders: Record<OrderKey, Order>;
  readonly #words: WordIndex;
  readonly #genreIds = new Map<string, number>();
  readonly #genreOf: Uint32Array;
  readonly #byGenre: Uint32Array[];

  constructor(games: readonly Game[]) {
    this.#ranked = [...games].sort(compareByRank);
    this.#all = Uint32Array.from(this.#ranked.keys());
    this.#orders = buildOrders(this.#ranked, this.#all);
    this.#words = buildWordIndex(this.#ranked);
    this.#genreOf = new Uint32Array(this.#ranked.length);
    const genreLists: number[][] = [];
    this.#ranked.forEach((game, position) => {
      const key = genreKey(game.genre);
      let genre = this.#genreIds.get(key);
      if (genre === undefined) {
        genre = genreLists.push([]) - 1;
        this.#genreIds.set(key, genre);
      }
      this.#genreOf[position] = genre;
      genreLists[genre]?.push(position);
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
    const order = query.sort === undefined ? undefined : this.#orders[query.sort];
    const matches = this.#match(query);
    if (matches === this.#all) {
      const page = (order?.positions ?? this.#all).subarray(offset, end);
      return { total: matches.length, games: this.#gamesAt(page) };
    }
    // Sort the matches by their index in the chosen order, then turn indexes back into games.
    const indexes = order ? matches.map((position) => order.indexOf[position] as number) : matches;
    indexes.sort();
    const page = indexes.subarray(offset, end);
    return {
      total: matches.length,
      games: this.#gamesAt(order ? page.map((index) => order.positions[index] as number) : page),
    };
  }

  #gamesAt(positions: Uint32Array): Game[] {
    return Array.from(positions, (position) => this.#ranked[position] as Game);
  }

  /** The positions of the matching games, in no particular order; `#all` when nothing filters. */
  #match(query: SearchQuery): Uint32Array {
    const words = tokenize(query.q ?? '');
    // Text with no letter or digit (`-`, an emoji) has no word to start one: it matches nothing.
    if (words.length === 0 && (query.q ?? '').trim() !== '') return new Uint32Array(0);
    const ranges = words.map((word) => this.#wordRange(word));
    const hasGenre = query.genre !== undefined && query.genre.trim() !== '';
    const genre = hasGenre ? this.#genreIds.get(genreKey(query.genre as string)) : undefined;
    const minYear = Math.max(query.year ?? -Infinity, query.from ?? -Infinity);
    const maxYear = Math.min(query.year ?? Infinity, query.to ?? Infinity);
    const { minRating } = query;
    if ((hasGenre && genre === undefined) || minYear > maxYear) return new Uint32Array(0);

    const sources: Source[] = ranges.map(([first, last], word) => {
      const { postings, postingStart } = this.#words;
      const from = postingStart[first] as number;
      const to = postingStart[last] as number;
      // A prefix of several words: its games may repeat and must be put back in order.
      const positions = () =>
        last - first === 1
          ? postings.subarray(from, to)
          : dedupeSorted(postings.slice(from, to).sort());
      return { size: to - from, positions, word };
    });
    const fixed = (positions: Uint32Array) => ({
      size: positions.length,
      positions: () => positions,
    });
    if (genre !== undefined) sources.push(fixed(this.#byGenre[genre] as Uint32Array));
    if (minYear > -Infinity || maxYear < Infinity) {
      const { positions } = this.#orders.releaseYear;
      const year = (index: number) =>
        (this.#ranked[positions[index] as number] as Game).releaseYear;
      const first = lowerBound(positions.length, (index) => year(index) < minYear);
      const last = lowerBound(positions.length, (index) => year(index) <= maxYear, first);
      sources.push(fixed(positions.subarray(first, last)));
    }
    if (minRating !== undefined) {
      const { positions } = this.#orders['-rating'];
      const count = lowerBound(positions.length, (index) => {
        const rating = (this.#ranked[positions[index] as number] as Game).rating;
        return rating !== null && rating >= minRating;
      });
      sources.push(fixed(positions.subarray(0, count)));
    }
    if (sources.length === 0) return this.#all;

    const source = sources.reduce((best, next) => (next.size < best.size ? next : best));
    const candidates = source.positions();
    const matches = new Uint32Array(candidates.length);
    let count = 0;
    for (const position of candidates) {
      const game = this.#ranked[position] as Game;
      if (genre !== undefined && this.#genreOf[position] !== genre) continue;
      if (game.releaseYear < minYear || game.releaseYear > maxYear) continue;
      if (minRating !== undefined && (game.rating === null || game.rating < minRating)) continue;
      if (!ranges.every((range, word) => word === source.word || this.#hasWord(position, range)))
        continue;
      matches[count++] = position;
    }
    return matches.subarray(0, count);
  }

  /** The numbers [first, last) of the indexed words that start with `prefix`. */
  #wordRange(prefix: string): [number, number] {
    const { words } = this.#words;
    const first = lowerBound(words.length, (index) => (words[index] as string) < prefix);
    const last = lowerBound(
      words.length,
      (index) => (words[index] as string).startsWith(prefix),
      first,
    );
    return [first, last];
  }

  #hasWord(position: number, [first, last]: [number, number]): boolean {
    const { gameWords, gameWordStart } = this.#words;
    const end = gameWordStart[position + 1] as number;
    for (let i = gameWordStart[position] as number; i < end; i++) {
      const word = gameWords[i] as number;
      if (word >= first && word < last) return true;
    }
    return false;
  }
}

/** Each sort key's order of all the games, ties by id. */
function buildOrders(ranked: readonly Game[], all: Uint32Array): Record<OrderKey, Order> {
  const orders: Partial<Record<OrderKey, Order>> = {};
  const at = (positions: Uint32Array, index: number) => ranked[positions[index] as number] as Game;
  for (const [field, compare] of Object.entries(FIELD_ORDERS) as [Field, Compare][]) {
    const ascending = all.slice().sort((p, q) => {
      const a = ranked[p] as Game;
      const b = ranked[q] as Game;
      return compare(a, b) || a.id - b.id;
    });
    orders[field] = withIndex(ascending);
    if (field === 'id') continue;
    // Descending without a second sort: runs of ties taken from the end, each kept in id
    // order; unrated games stay last.
    const n = ascending.length;
    const sorted = field === 'rating' ? lowerBound(n, (i) => at(ascending, i).rating !== null) : n;
    const descending = new Uint32Array(n);
    descending.set(ascending.subarray(sorted), sorted);
    for (let end = sorted, filled = 0; end > 0; ) {
      let start = end - 1;
      while (start > 0 && compare(at(ascending, start - 1), at(ascending, end - 1)) === 0) start--;
      descending.set(ascending.subarray(start, end), filled);
      filled += end - start;
      end = start;
    }
    orders[`-${field}`] = withIndex(descending);
  }
  return orders as Record<OrderKey, Order>;
}

/** The words of titles and developers, both ways: word -> games and game -> words. */
interface WordIndex {
  /** Sorted, distinct; word w's games are postings[postingStart[w] .. postingStart[w + 1]]. */
  words: string[];
  postingStart: Uint32Array;
  postings: Uint32Array;
  /** The word numbers of the game at position p: gameWords[gameWordStart[p] .. [p + 1]]. */
  gameWordStart: Uint32Array;
  gameWords: Uint32Array;
}

function buildWordIndex(ranked: readonly Game[]): WordIndex {
  const wordsOfGame = ranked.map((game) => tokenize(`${game.title} ${game.developer}`));
  const gamesOfWord = new Map<string, number[]>();
  wordsOfGame.forEach((words, position) => {
    for (const word of words) {
      const list = gamesOfWord.get(word);
      if (list) list.push(position);
      else gamesOfWord.set(word, [position]);
    }
  });
  // UTF-16 order, as the `<` of the prefix look-up uses.
  const words = [...gamesOfWord.keys()].sort();
  const size = wordsOfGame.reduce((sum, list) => sum + list.length, 0);
  const postingStart = new Uint32Array(words.length + 1);
  const postings = new Uint32Array(size);
  let filled = 0;
  words.forEach((word, index) => {
    postingStart[index] = filled;
    for (const position of gamesOfWord.get(word) ?? []) postings[filled++] = position;
  });
  postingStart[words.length] = filled;

  const wordNumber = new Map(words.map((word, index) => [word, index]));
  const gameWordStart = new Uint32Array(ranked.length + 1);
  const gameWords = new Uint32Array(size);
  filled = 0;
  wordsOfGame.forEach((list, position) => {
    gameWordStart[position] = filled;
    for (const word of list) gameWords[filled++] = wordNumber.get(word) ?? 0;
  });
  gameWordStart[ranked.length] = filled;
  return { words, postingStart, postings, gameWordStart, gameWords };
}

function withIndex(positions: Uint32Array): Order {
  const indexOf = new Uint32Array(positions.length);
  positions.forEach((position, index) => {
    indexOf[position] = index;
  });
  return { positions, indexOf };
}

/** The first index in [from, length) where `before` turns false; it must be true then false. */
function lowerBound(length: number, before: (index: number) => boolean, from = 0): number {
  let low = from;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(middle)) low = middle + 1;
    else high = middle;
  }
  return low;
}

function dedupeSorted(values: Uint32Array): Uint32Array {
  let count = 0;
  for (let i = 0; i < values.length; i++) {
    if (i === 0 || values[i] !== values[i - 1]) values[count++] = values[i] as number;
  }
  return values.subarray(0, count);
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
