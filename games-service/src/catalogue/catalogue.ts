import type { Game } from './game.js';

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

/** The order a reader expects of names: by letter, ignoring case and accents (Racing before RPG). */
const readerOrder = new Intl.Collator('en', { sensitivity: 'base' }).compare;

/** How a genre is matched: ignoring case and surrounding spaces. */
export const genreKey = (genre: string) => genre.trim().toLowerCase();

/**
 * The games, indexed once so that every question costs in proportion to its
 * answer rather than to the size of the catalogue.
 */
export class Catalogue {
  readonly games: readonly Game[];
  /** Genre display names, alphabetical as a reader expects (ignoring case). */
  readonly genres: readonly string[];
  readonly #byId = new Map<number, Game>();
  readonly #byGenre = new Map<string, Game[]>();
  readonly #rated: readonly Game[];
  readonly #hiddenGems: readonly Game[];

  constructor(games: readonly Game[]) {
    this.games = [...games].sort((a, b) => a.id - b.id);
    const ranked = [...games].sort(compareByRank);
    const genreNames = new Map<string, string>();
    for (const game of ranked) {
      this.#byId.set(game.id, game);
      const key = genreKey(game.genre);
      if (!genreNames.has(key)) genreNames.set(key, game.genre);
      const list = this.#byGenre.get(key);
      if (list) list.push(game);
      else this.#byGenre.set(key, [game]);
    }
    this.genres = [...genreNames.values()].sort(readerOrder);
    this.#rated = ranked.filter((game) => game.rating !== null);
    this.#hiddenGems = this.#rated.filter(isHiddenGem);
  }

  get size(): number {
    return this.games.length;
  }

  byId(id: number): Game | undefined {
    return this.#byId.get(id);
  }

  /** Up to `limit` games of a genre (matched case-insensitively), best first. */
  byGenre(genre: string, limit = Number.POSITIVE_INFINITY): readonly Game[] {
    const list = this.#byGenre.get(genreKey(genre)) ?? [];
    return limit >= list.length ? list : list.slice(0, limit);
  }

  /** The `count` highest-rated games, best first; unrated games never appear. */
  topRated(count: number): readonly Game[] {
    return this.#rated.slice(0, count);
  }

  /** Every hidden gem, best first. */
  hiddenGems(): readonly Game[] {
    return this.#hiddenGems;
  }

  /** Up to `count` other games of the same genre, best-rated first. */
  recommendations(game: Game, count = RECOMMENDATION_COUNT): Game[] {
    const picks: Game[] = [];
    for (const other of this.byGenre(game.genre)) {
      if (picks.length === count) break;
      if (other.id !== game.id) picks.push(other);
    }
    return picks;
  }

  /** `count` distinct games chosen uniformly at random, in random order. */
  sample(count: number, random: () => number = Math.random): Game[] {
    return sampleIndexes(this.games.length, count, random).map(
      (index) => this.games[index] as Game,
    );
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
