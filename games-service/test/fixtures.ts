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

/**
 * Games whose titles match one another only under full case folding (ß and ss, final ς and σ),
 * with accents written composed and decomposed, and one title typed with σ for a final ς;
 * SEARCHES_ACROSS_FOLDING gives what each query finds among them.
 */
export const foldingGames = () => [
  makeGame({ id: 1, title: 'ΟΔΥΣΣΕΥΣ Returns' }),
  makeGame({ id: 2, title: 'Ὀδυσσεύς Rising' }),
  makeGame({ id: 3, title: 'Straße der Helden' }),
  makeGame({ id: 4, title: 'Strasse Nights' }),
  makeGame({ id: 5, title: 'Poke\u0301mon Red' }),
  makeGame({ id: 6, title: 'Pok\u00e9mon Blue' }),
  makeGame({ id: 7, title: 'Stranded Ships' }),
  makeGame({ id: 8, title: 'Οδυσσευσ Legacy' }),
];

export const SEARCHES_ACROSS_FOLDING: readonly (readonly [string, number[]])[] = [
  ['οδυσσευσ', [1, 2, 8]],
  ['οδυσσευς', [1, 2, 8]],
  ['ΟΔΥΣΣΕΥΣ', [1, 2, 8]],
  ['Ὀδυσσεύς', [1, 2, 8]],
  ['ΟΔΥΣ', [1, 2, 8]],
  ['strasse', [3, 4]],
  ['STRASSE', [3, 4]],
  ['straße', [3, 4]],
  ['STRAẞE', [3, 4]],
  ['straß', [3, 4]],
  ['pok\u00e9mon', [5, 6]],
  ['poke\u0301mon', [5, 6]],
  ['pokemon', [5, 6]],
];
