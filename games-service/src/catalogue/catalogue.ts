import type { Game } from './game.js';
import { GenreIndex } from './genre-index.js';
import { gamesAt, type Order, sortOrder } from './order.js';
import { GameSearch, type SearchQuery, type SearchResult } from './search.js';

/** A hidden gem is rated at least this high... */
export const HIDDEN_GEM_MIN_RATING = 8.5;
/** ...and has fewer reviews than this. */
export const HIDDEN_GEM_MAX_REVIEWS = 5000;
export const RECOMMENDATION_COUNT = 3;

export function isHiddenGem(game: Game): boolean {
  return (
    game.rating !== null &&
    game.rating >= HIDDEN_GEM_MIN_RATING &&
    game.reviewCount < HIDDEN_GEM_MAX_REVIEWS
  );
}

/** Best first: higher rating, then more reviews, then title; unrated games last. */
export function compareByRank(a: Game, b: Game): number {
  if (a.rating !== b.rating) {
    if (a.rating === null) return 1;
    if (b.rating === null) return -1;
    return b.rating - a.rating;
  }
  if (a.reviewCount !== b.reviewCount) return b.reviewCount - a.reviewCount;
  if (a.title !== b.title) return a.title < b.title ? -1 : 1;
  return a.id - b.id;
}

/**
 * The games, sorted and indexed once so that every question costs in proportion to its answer
 * rather than to the size of the catalogue. A game is known by its position in `games` (by id);
 * the ranked order (best first), the genres and the search all share it.
 */
export class Catalogue {
  /** Every game, by id. */
  readonly games: readonly Game[];
  readonly #byId = new Map<number, Game>();
  /** Best first (compareByRank). */
  readonly #rank: Order;
  readonly #genres: GenreIndex;
  /** How many games are rated: they come first in the ranked order. */
  readonly #ratedCount: number;
  readonly #hiddenGems: readonly Game[];
  readonly #search: GameSearch;
  /**
   * What names these games, and only these: the SHA-1 of the file they were read from (16
   * characters of base64url). The tags of the answers that list them are made from it, so a
   * client's copy is valid as long as the file is the same. The default is for tests only.
   */
  readonly version: string;

  constructor(games: readonly Game[], version = 'unversioned') {
    this.version = version;
    this.games = [...games].sort((a, b) => a.id - b.id);
    for (const game of this.games) this.#byId.set(game.id, game);
    this.#rank = sortOrder(this.games, compareByRank);
    const ranked = gamesAt(this.games, this.#rank.positions);
    this.#ratedCount = ranked.findLastIndex((game) => game.rating !== null) + 1;
    this.#hiddenGems = ranked.filter(isHiddenGem);
    this.#genres = new GenreIndex(this.games, this.#rank);
    this.#search = new GameSearch(this.games, this.#rank, this.#genres);
  }

  get size(): number {
    return this.games.length;
  }

  /** Genre display names, alphabetical as a reader expects (ignoring case). */
  get genres(): readonly string[] {
    return this.#genres.names;
  }

  byId(id: number): Game | undefined {
    return this.#byId.get(id);
  }

  /** Up to `limit` games of a genre (matched case-insensitively), best first. */
  byGenre(genre: string, limit = Number.POSITIVE_INFINITY): Game[] {
    return gamesAt(this.games, this.#genrePositions(genre).subarray(0, limit));
  }

  /** How many games have a genre (matched case-insensitively). */
  genreSize(genre: string): number {
    return this.#genrePositions(genre).length;
  }

  /** The `count` highest-rated games, best first; unrated games never appear. */
  topRated(count: number): Game[] {
    return gamesAt(this.games, this.#rank.positions.subarray(0, Math.min(count, this.#ratedCount)));
  }

  /** Every hidden gem, best first. */
  hiddenGems(): readonly Game[] {
    return this.#hiddenGems;
  }

  /** Up to `count` other games of the same genre, best-rated first. */
  recommendations(game: Game, count = RECOMMENDATION_COUNT): Game[] {
    const picks: Game[] = [];
    for (const position of this.#genrePositions(game.genre)) {
      if (picks.length === count) break;
      const other = this.games[position] as Game;
      if (other.id !== game.id) picks.push(other);
    }
    return picks;
  }

  /** The games a query finds, one page of them, and how many there are (see GameSearch). */
  search(query: SearchQuery = {}): SearchResult {
    return this.#search.search(query);
  }

  /** `count` distinct games chosen uniformly at random, in random order. */
  sample(count: number, random: () => number = Math.random): Game[] {
    return sampleIndexes(this.games.length, count, random).map(
      (index) => this.games[index] as Game,
    );
  }

  #genrePositions(genre: string): Uint32Array {
    const number = this.#genres.numberOf(genre);
    return number === undefined ? new Uint32Array(0) : this.#genres.positions(number);
  }
}

/**
 * Floyd's algorithm: k distinct indexes below n in O(k), whatever n is,
 * then shuffled so that their order is random too.
 */
function sampleIndexes(n: number, k: number, random: () => number): number[] {
  const size = Math.min(k, n);
  const chosen = new Set<number>();
  for (let j = n - size; j < n; j++) {
    const t = Math.floor(random() * (j + 1));
    chosen.add(chosen.has(t) ? j : t);
  }
  const indexes = [...chosen];
  for (let i = indexes.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [indexes[i], indexes[j]] = [indexes[j] as number, indexes[i] as number];
  }
  return indexes;
}
