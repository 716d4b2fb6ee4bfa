import type { Game } from './game.js';

/**
 * One order of the catalogue's games, each game known by its position in the catalogue (games
 * by id): `positions[i]` is the position of the i-th game in this order, `indexOf` its inverse.
 */
export interface Order {
  positions: Uint32Array;
  indexOf: Uint32Array;
}

/** The order `compare` gives to `games`, sorted once. */
export function sortOrder(games: readonly Game[], compare: (a: Game, b: Game) => number): Order {
  const positions = Uint32Array.from(games.keys()).sort((p, q) =>
    compare(games[p] as Game, games[q] as Game),
  );
  const indexOf = new Uint32Array(positions.length);
  positions.forEach((position, index) => {
    indexOf[position] = index;
  });
  return { positions, indexOf };
}

/** The catalogue's own order (by id): every game at its position. */
export function identityOrder(size: number): Order {
  const positions = Uint32Array.from({ length: size }, (_, index) => index);
  return { positions, indexOf: positions };
}
