import type { Game } from '../src/catalogue/game.js';

let nextId = 1;

/** A valid game; override only what a test is about. */
export function makeGame(overrides: Partial<Game> = {}): Game {
  const id = overrides.id ?? nextId++;
  return {
    id,
    title: `Game ${id}`,
    releaseYear: 2010,
    rating: 7.0,
    description: 'A game made for the tests. It has two sentences.',
    shortDescription: 'A game made for the tests.',
    developer: 'Test Studio',
    genre: 'Puzzle',
    reviewCount: 10_000,
    ...overrides,
  };
}
