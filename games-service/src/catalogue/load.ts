import { seedFile } from 'service-kit';
import { type Game, gameSchema } from './game.js';

/** The games of a seed file: each against the schema, then ids and titles unique, ratings to a tenth. */
const gamesFile = seedFile<Game>({
  what: 'games',
  recordSchema: gameSchema,
  check: (games) => [
    ...findDuplicates(games, 'id'),
    ...findDuplicates(games, 'title'),
    ...findLongRatings(games),
  ],
});

/**
 * Reads and validates the seed file, as a stream, and resolves to its games and its version; a
 * broken file names the bad record and field, a file too large for the process is refused.
 */
export const loadGames = gamesFile.load;

export const parseGames = (data: unknown, source = 'games'): Game[] =>
  gamesFile.parse(data, source);

function findLongRatings(games: Game[]): string[] {
  return games.flatMap(({ rating, title }, index) =>
    rating === null || Number(rating.toFixed(1)) === rating
      ? []
      : [
          `record ${index} (${JSON.stringify(title)}): field "rating" must have one decimal at most`,
        ],
  );
}

function findDuplicates(games: Game[], field: 'id' | 'title'): string[] {
  const seen = new Map<unknown, number>();
  const problems: string[] = [];
  games.forEach((game, index) => {
    const first = seen.get(game[field]);
    if (first === undefined) seen.set(game[field], index);
    else problems.push(`record ${index}: field "${field}" repeats record ${first}`);
  });
  return problems;
}
