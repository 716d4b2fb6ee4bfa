import MiniSearch from 'minisearch';
import type { Game } from './game.js';
import { lowerBound } from './lower-bound.js';

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

/** What MiniSearch holds of a game: `id` is the game's position. */
type Indexed = Pick<Game, 'title' | 'developer'> & { id: number };

/**
 * The words of each game's title and developer, to find the games where every word of a query
 * starts one of them.
 *
 * MiniSearch reads, for each word it is given, every game that has a word starting with it,
 * before it can keep those that match all the words: "the witcher" would cost every game with
 * "the". So only the query word of least `reach` goes to MiniSearch, and the games it finds are
 * checked against the other words here. Any word would give the same answer; the rarest only
 * keeps the cost down to the games that word reaches.
 */
export class WordIndex {
  readonly #miniSearch = new MiniSearch<Indexed>({
    fields: ['title', 'developer'],
    tokenize,
    processTerm: (term) => term,
    // It is asked for one word at a time, already normalised.
    searchOptions: { prefix: true, tokenize: (word) => [word] },
  });
  /** Each game's words as " word word …": " w" occurs in it when one of them starts with w. */
  readonly #wordsOf: string[];
  /** Every distinct word, in code unit order, so that the words a prefix starts lie together. */
  readonly #words: string[];
  /** `gamesBefore[i]`: how many games have `words[0]`, plus how many have `words[1]`, … to i - 1. */
  readonly #gamesBefore: Float64Array;

  /** `games[i]` is found as position i. */
  constructor(games: readonly Pick<Game, 'title' | 'developer'>[]) {
    this.#miniSearch.addAll(games.map(({ title, developer }, id) => ({ id, title, developer })));
    const gamesWith = new Map<string, number>();
    this.#wordsOf = games.map(({ title, developer }) => {
      const words = new Set([...tokenize(title), ...tokenize(developer)]);
      for (const word of words) gamesWith.set(word, (gamesWith.get(word) ?? 0) + 1);
      return ` ${[...words].join(' ')}`;
    });
    this.#words = [...gamesWith.keys()].sort();
    this.#gamesBefore = new Float64Array(this.#words.length + 1);
    this.#words.forEach((word, index) => {
      this.#gamesBefore[index + 1] =
        (this.#gamesBefore[index] as number) + (gamesWith.get(word) as number);
    });
  }

  /**
   * How many games have each word that `prefix` starts, summed over those words: what MiniSearch
   * reads to find the games for `prefix`.
   */
  reach(prefix: string): number {
    const words = this.#words;
    const first = lowerBound(words.length, (index) => (words[index] as string) < prefix);
    const end = lowerBound(
      words.length,
      (index) => (words[index] as string).startsWith(prefix),
      first,
    );
    return (this.#gamesBefore[end] as number) - (this.#gamesBefore[first] as number);
  }

  /** The positions of the games where each word of `q` starts a word; undefined for a blank q. */
  matches(q = ''): Uint32Array | undefined {
    if (q.trim() === '') return undefined;
    // Rarest first; a lone word is never compared, so it costs no reach. Text without a letter
    // or digit (`-`, an emoji) has no word to start one: nothing matches.
    const [rarest, ...others] = tokenize(q).sort((a, b) => this.reach(a) - this.reach(b));
    if (rarest === undefined) return new Uint32Array(0);
    const found = Uint32Array.from(this.#miniSearch.search(rarest), (result) => result.id);
    if (others.length === 0) return found;
    const starts = others.map((word) => ` ${word}`);
    return found.filter((position) =>
      starts.every((start) => (this.#wordsOf[position] as string).includes(start)),
    );
  }
}
