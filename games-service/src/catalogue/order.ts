import type { Game } from './game.js';

/**
 * One order of the catalogue's games, each game known by its position in the catalogue (games
 * by id, so that ties broken by position are broken by id): `positions[i]` is the position of
 * the i-th game in this order, `indexOf` its inverse.
 */
export interface Order {
  positions: Uint32Array;
  indexOf: Uint32Array;
}

/**
 * The games at `positions`, in that order. A loop: Array.from with a mapping function walks a
 * typed array through its iterator, far slower (bench/RESULTS.md).
 */
export function gamesAt(games: readonly Game[], positions: Uint32Array): Game[] {
  const found = new Array<Game>(positions.length);
  for (let i = 0; i < positions.length; i++) found[i] = games[positions[i] as number] as Game;
  return found;
}

function withIndex(positions: Uint32Array): Order {
  const indexOf = new Uint32Array(positions.length);
  for (let index = 0; index < positions.length; index++) {
    indexOf[positions[index] as number] = index;
  }
  return { positions, indexOf };
}

/** The order `compare` gives to `games`, sorted once. */
export function sortOrder(games: readonly Game[], compare: (a: Game, b: Game) => number): Order {
  return withIndex(
    Uint32Array.from(games.keys()).sort((p, q) => compare(games[p] as Game, games[q] as Game)),
  );
}

/** Ascending by a number per position, ties by position. */
export function orderByNumber(keys: Float64Array): Order {
  const size = keys.length;
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  let whole = true;
  for (let i = 0; i < size; i++) {
    const key = keys[i] as number;
    if (key < low) low = key;
    if (key > high) high = key;
    if (whole && !Number.isInteger(key)) whole = false;
  }
  // Whole numbers of a small enough range pack with their position into one exact number, which
  // a typed array sorts natively, many times faster than through a comparison function.
  if (whole && (high - low + 1) * size <= Number.MAX_SAFE_INTEGER) {
    const packed = new Float64Array(size);
    for (let i = 0; i < size; i++) packed[i] = ((keys[i] as number) - low) * size + i;
    packed.sort();
    const positions = new Uint32Array(size);
    for (let i = 0; i < size; i++) positions[i] = (packed[i] as number) % size;
    return withIndex(positions);
  }
  return withIndex(
    Uint32Array.from(keys.keys()).sort(
      (p, q) => (keys[p] as number) - (keys[q] as number) || p - q,
    ),
  );
}

/** Ascending by a text per position in `compare`'s order, ties by position. */
export function orderByText(texts: readonly string[], compare: (a: string, b: string) => number) {
  return withIndex(
    Uint32Array.from(texts.keys()).sort(
      (p, q) => compare(texts[p] as string, texts[q] as string) || p - q,
    ),
  );
}

/**
 * The descending order of an ascending one, in one pass instead of a second sort: reversed, but
 * with ties still by position, and the last `keptLast` games (those without a value) kept last.
 */
export function reverseOrder(
  ascending: Order,
  same: (p: number, q: number) => boolean,
  keptLast = 0,
): Order {
  const from = ascending.positions;
  const end = from.length - keptLast;
  const positions = new Uint32Array(from.length);
  let written = 0;
  for (let runEnd = end; runEnd > 0; ) {
    let runStart = runEnd - 1;
    while (runStart > 0 && same(from[runStart - 1] as number, from[runEnd - 1] as number))
      runStart--;
    positions.set(from.subarray(runStart, runEnd), written);
    written += runEnd - runStart;
    runEnd = runStart;
  }
  positions.set(from.subarray(end), end);
  return withIndex(positions);
}

/** The catalogue's own order (by id): every game at its position. */
export function identityOrder(size: number): Order {
  const positions = Uint32Array.from({ length: size }, (_, index) => index);
  return { positions, indexOf: positions };
}
