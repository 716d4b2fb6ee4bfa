import type { Game } from './game.js';
import type { Order } from './order.js';

/** How a genre is matched: ignoring case and surrounding spaces. */
export const genreKey = (genre: string) => genre.trim().toLowerCase();

/** The order a reader expects of names: by letter, ignoring case and accents (Racing before RPG). */
const readerOrder = new Intl.Collator('en', { sensitivity: 'base' }).compare;

/** The games of each genre, in one order of the catalogue. */
export class GenreIndex {
  /** Genre display names (each as first met in the order), alphabetical as a reader expects. */
  readonly names: readonly string[];
  /** The genre number of the game at each position. */
  readonly genreOf: Uint32Array;
  readonly #numbers = new Map<string, number>();
  readonly #positions: Uint32Array[];

  constructor(games: readonly Game[], order: Order) {
    const lists: number[][] = [];
    const names: string[] = [];
    this.genreOf = new Uint32Array(games.length);
    for (const position of order.positions) {
      const game = games[position] as Game;
      const key = genreKey(game.genre);
      let genre = this.#numbers.get(key);
      if (genre === undefined) {
        genre = lists.push([]) - 1;
        names.push(game.genre);
        this.#numbers.set(key, genre);
      }
      lists[genre]?.push(position);
      this.genreOf[position] = genre;
    }
    this.#positions = lists.map((list) => Uint32Array.from(list));
    this.names = names.sort(readerOrder);
  }

  /** The number of a genre, matched case-insensitively; undefined when no game has it. */
  numberOf(genre: string): number | undefined {
    return this.#numbers.get(genreKey(genre));
  }

  /** The positions of a genre's games, in the index's order. */
  positions(genre: number): Uint32Array {
    return this.#positions[genre] ?? new Uint32Array(0);
  }
}
