// Hand-written: relevance-ranked libraries (MiniSearch, FlexSearch) score every match before
// keeping a page, and our orders are by id and by rating; see bench/RESULTS.md for the figures.
import { foldCase } from './case-fold.js';
import type { Game } from './game.js';
import { lowerBound } from './lower-bound.js';

/**
 * Case- and accent-insensitive form of a text, the same for the index and the query: case fully
 * folded, compatibility forms decomposed and accents dropped. "Pokémon" and "POKEMON" both become
 * "pokemon", "Straße" and "STRASSE" "strasse".
 */
export function normalize(text: string): string {
  // Fold both sides of NFKD, as Unicode's compatibility caseless match does: "ᾳ" folds to "αι"
  // (its iota is a letter, not an accent), "㎒" decomposes to "MHz".
  return foldCase(
    foldCase(text)
      .normalize('NFKD')
      .replace(/\p{M}+/gu, ''),
  );
}

/** The distinct normalised words of a text; anything but a letter or a digit separates them. */
export function tokenize(text: string): string[] {
  // Printable ASCII has no accent or compatibility form, and folds as it lowers.
  const words = ASCII.test(text)
    ? text.toLowerCase().split(/[^a-z0-9]+/)
    : normalize(text).split(/[^\p{L}\p{N}]+/u);
  return [...new Set(words)].filter((word) => word !== '');
}

const ASCII = /^[ -~]*$/;

/** How many units two texts share at their start. */
function sharedStart(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let i = 0;
  while (i < length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** The words a query word starts: ids [first, end) of the sorted vocabulary. */
interface WordRange {
  first: number;
  end: number;
}

/** The games a query matched; valid until the index is asked again. */
export interface WordMatches {
  /** How many games match. */
  count: number;
  /**
   * Their positions, each once, in no particular order. A one-word query finds them only when
   * this is first called (reading its postings); has() then costs one read a game.
   */
  positions(): Uint32Array;
  has(position: number): boolean;
}

/**
 * The longest shared start of two words of one game that the index tabulates: a one-word query
 * longer than this, starting several words that games share so long a start of, reads its
 * postings to count its games.
 */
const MAX_SHARED_START = 16;

/**
 * A game's word-by-word check costs about this many posting reads: a query word is checked
 * game by game when that reads less than its posting lists would.
 */
const CHECK_COST = 4;

/**
 * The words of each game's title and developer, to find the games where every word of a query
 * starts one of them, at a cost that follows the postings read.
 *
 * The vocabulary is sorted, so the words a prefix starts have consecutive ids and their posting
 * lists lie end to end in one array. The query's rarest word gives the candidates; each other
 * word then keeps those it reaches, by reading its postings or by checking each candidate's
 * words, whichever reads less. A search stamps the games it keeps in a scratch array rather
 * than building sets, so it allocates nothing in proportion to the catalogue. A one-word query
 * reads no postings at all to be counted (see #gamesStarting); its games are then tested one by
 * one as a walk of an order meets them.
 */
export class WordIndex {
  /** Every distinct word, in code unit order. */
  readonly #words: string[];
  /** The games of word w: `postings[postingStart[w]]` up to `postings[postingStart[w + 1]]`. */
  readonly #postingStart: Uint32Array;
  readonly #postings: Uint32Array;
  /** The word ids of game p, ascending: `wordIds[wordStart[p]]` up to `wordIds[wordStart[p + 1]]`. */
  readonly #wordStart: Uint32Array;
  readonly #wordIds: Uint32Array;
  /**
   * How many games have two consecutive words (in id order) that share their first `l` or more
   * units, the second of them below word w: `shared[(l - 1) * (words + 1) + w]`, l from 1 to
   * `#sharedLevels`. A prefix query counts a game once however many of its words it starts.
   */
  readonly #shared: Uint32Array;
  readonly #sharedLevels: number;
  /** The longest start two consecutive words of a game share (uncapped). */
  readonly #longestShared: number;
  /** Per game, the stamp of the last search step that kept it. */
  readonly #stamps: Uint32Array;
  /** The candidates of the search under way. */
  readonly #found: Uint32Array;
  #lastStamp = 0;

  /** `games[i]` is found as position i. */
  constructor(games: readonly Pick<Game, 'title' | 'developer'>[]) {
    // Each game's words as numbers (in order of first appearance), end to end in one array, not
    // an array of strings per game: those would outlive the construction as garbage, and an idle
    // process collects none (bench/RESULTS.md, "Where the games' memory is").
    const firstSeen = new Map<string, number>();
    const counts: number[] = [];
    this.#wordStart = new Uint32Array(games.length + 1);
    let wordIds = new Uint32Array(games.length * 4);
    let at = 0;
    games.forEach(({ title, developer }, position) => {
      for (const word of tokenize(`${title} ${developer}`)) {
        let seen = firstSeen.get(word);
        if (seen === undefined) {
          seen = counts.push(0) - 1;
          firstSeen.set(word, seen);
        }
        counts[seen] = (counts[seen] as number) + 1;
        if (at === wordIds.length) {
          const longer = new Uint32Array(wordIds.length * 2);
          longer.set(wordIds);
          wordIds = longer;
        }
        wordIds[at++] = seen;
      }
      this.#wordStart[position + 1] = at;
    });
    this.#words = [...firstSeen.keys()].sort();
    const idOf = new Uint32Array(this.#words.length);
    this.#postingStart = new Uint32Array(this.#words.length + 1);
    this.#words.forEach((word, id) => {
      const seen = firstSeen.get(word) as number;
      idOf[seen] = id;
      this.#postingStart[id + 1] = (this.#postingStart[id] as number) + (counts[seen] as number);
    });
    this.#wordIds = wordIds.slice(0, at);
    this.#postings = new Uint32Array(at);
    const next = this.#postingStart.slice(0, -1);
    for (let position = 0; position < games.length; position++) {
      const ids = this.#wordIds.subarray(this.#wordStart[position], this.#wordStart[position + 1]);
      for (let i = 0; i < ids.length; i++) ids[i] = idOf[ids[i] as number] as number;
      ids.sort();
      for (const id of ids) this.#postings[(next[id] as number)++] = position;
    }
    const shares: number[] = [];
    let longestShared = 0;
    for (let position = 0; position < games.length; position++) {
      const start = this.#wordStart[position] as number;
      const last = this.#wordStart[position + 1] as number;
      for (let i = start + 1; i < last; i++) {
        const id = this.#wordIds[i] as number;
        const length = sharedStart(
          this.#words[this.#wordIds[i - 1] as number] as string,
          this.#words[id] as string,
        );
        if (length === 0) continue;
        shares.push(id, length);
        longestShared = Math.max(longestShared, length);
      }
    }
    const width = this.#words.length + 1;
    this.#longestShared = longestShared;
    this.#sharedLevels = Math.min(longestShared, MAX_SHARED_START);
    const shared = new Uint32Array(this.#sharedLevels * width);
    for (let i = 0; i < shares.length; i += 2) {
      const id = shares[i] as number;
      const levels = Math.min(shares[i + 1] as number, this.#sharedLevels);
      for (let level = 0; level < levels; level++) {
        const at = level * width + id + 1;
        shared[at] = (shared[at] as number) + 1;
      }
    }
    for (let level = 0; level < this.#sharedLevels; level++) {
      for (let at = level * width + 1; at < (level + 1) * width; at++) {
        shared[at] = (shared[at] as number) + (shared[at - 1] as number);
      }
    }
    this.#shared = shared;
    this.#stamps = new Uint32Array(games.length);
    this.#found = new Uint32Array(games.length);
  }

  /**
   * How many games have each word that `prefix` starts, summed over those words: the postings
   * read to find the games for `prefix`.
   */
  reach(prefix: string): number {
    return this.#reachOf(this.#range(prefix));
  }

  /**
   * The games where each word of `q` starts a word of the title or developer, and that `keeps`
   * accepts; undefined for a blank q. Text without a letter or digit (`-`, an emoji) has no word
   * to start one: nothing matches.
   */
  matches(q = '', keeps?: (position: number) => boolean): WordMatches | undefined {
    if (q.trim() === '') return undefined;
    const words = tokenize(q);
    const [only] = words;
    if (only !== undefined && words.length === 1 && keeps === undefined) {
      const range = this.#range(only);
      const count = this.#gamesStarting(only, range);
      if (count !== undefined) return this.#oneWord(range, count);
    }
    const ranges = words
      .map((word) => this.#range(word))
      .sort((a, b) => this.#reachOf(a) - this.#reachOf(b));
    const [rarest, ...others] = ranges;
    const stamps = this.#stamps;
    const found = this.#found;
    let stamp = this.#newStamps(ranges.length + 1);
    let count = rarest === undefined ? 0 : this.#gamesOf(rarest, stamp);
    for (const range of others) {
      if (count === 0) break;
      const kept = stamp + 1;
      if (this.#reachOf(range) <= count * CHECK_COST) {
        const postings = this.#postingsOf(range);
        for (let i = 0; i < postings.length; i++) {
          const position = postings[i] as number;
          if (stamps[position] === stamp) stamps[position] = kept;
        }
      } else {
        for (let i = 0; i < count; i++) {
          const position = found[i] as number;
          if (this.#hasWordIn(position, range)) stamps[position] = kept;
        }
      }
      stamp = kept;
      count = this.#keep(count, (position) => stamps[position] === kept, stamp);
    }
    if (keeps !== undefined && count > 0) count = this.#keep(count, keeps, ++stamp);
    const last = stamp;
    const positions = found.subarray(0, count);
    return { count, positions: () => positions, has: (position) => stamps[position] === last };
  }

  /**
   * How many games have a word that `prefix` starts, without reading their postings: each
   * game counts once for every such word, less once for each of its consecutive words (in id
   * order) that `prefix` starts both of. Undefined when the table is too short for the prefix.
   */
  #gamesStarting(prefix: string, range: WordRange): number | undefined {
    const reach = this.#reachOf(range);
    if (range.end - range.first <= 1 || prefix.length > this.#longestShared) return reach;
    if (prefix.length > this.#sharedLevels) return undefined;
    const row = (prefix.length - 1) * (this.#words.length + 1);
    return (
      reach -
      ((this.#shared[row + range.end] as number) - (this.#shared[row + range.first] as number))
    );
  }

  /**
   * The games of a one-word query, counted already: each is tested word by word until the
   * caller asks for them all, which stamps them.
   */
  #oneWord(range: WordRange, count: number): WordMatches {
    let found: Uint32Array | undefined;
    const stamp = this.#newStamps(1);
    const stamps = this.#stamps;
    return {
      count,
      positions: () => {
        found ??= this.#found.subarray(0, this.#gamesOf(range, stamp));
        return found;
      },
      has: (position) =>
        found === undefined ? this.#hasWordIn(position, range) : stamps[position] === stamp,
    };
  }

  #range(prefix: string): WordRange {
    const words = this.#words;
    const first = lowerBound(words.length, (id) => (words[id] as string) < prefix);
    const end = lowerBound(words.length, (id) => (words[id] as string).startsWith(prefix), first);
    return { first, end };
  }

  #reachOf({ first, end }: WordRange): number {
    return (this.#postingStart[end] as number) - (this.#postingStart[first] as number);
  }

  #postingsOf({ first, end }: WordRange): Uint32Array {
    return this.#postings.subarray(this.#postingStart[first], this.#postingStart[end]);
  }

  #hasWordIn(position: number, { first, end }: WordRange): boolean {
    const last = this.#wordStart[position + 1] as number;
    for (let i = this.#wordStart[position] as number; i < last; i++) {
      const id = this.#wordIds[i] as number;
      if (id >= first) return id < end;
    }
    return false;
  }

  /** Puts the games of `range` in `found`, each once, stamped; returns how many. */
  #gamesOf(range: WordRange, stamp: number): number {
    const postings = this.#postingsOf(range);
    const stamps = this.#stamps;
    const found = this.#found;
    let count = 0;
    for (let i = 0; i < postings.length; i++) {
      const position = postings[i] as number;
      if (stamps[position] !== stamp) {
        stamps[position] = stamp;
        found[count++] = position;
      }
    }
    return count;
  }

  /** Keeps, of the first `count` candidates, those `keeps` accepts, stamped; returns how many. */
  #keep(count: number, keeps: (position: number) => boolean, stamp: number): number {
    const found = this.#found;
    let kept = 0;
    for (let i = 0; i < count; i++) {
      const position = found[i] as number;
      if (keeps(position)) {
        this.#stamps[position] = stamp;
        found[kept++] = position;
      }
    }
    return kept;
  }

  /** The first of `count` stamps no game carries yet. */
  #newStamps(count: number): number {
    if (this.#lastStamp + count >= 0xffffffff) {
      this.#stamps.fill(0);
      this.#lastStamp = 0;
    }
    const first = this.#lastStamp + 1;
    this.#lastStamp += count;
    return first;
  }
}
