import { seedFile } from 'service-kit';
import { type Game, gameSchema } from './game.js';

/**
 * One string per distinct text: the parser makes a new string for every game's genre and
 * developer, and a genre is a shelf, a developer a studio, each shared by many games.
 */
function sharedTexts() {
  const texts = new Map<string, string>();
  return (text: string) => {
    const shared = texts.get(text);
    if (shared !== undefined) return shared;
    texts.set(text, text);
    return text;
  };
}

/**
 * The games of a seed file: each against the schema, then ids and titles unique, ratings to a
 * tenth. Each reading has its own table of shared texts, dropped with it.
 */
function gamesFile() {
  const share = sharedTexts();
  return seedFile<Game>({
    what: 'games',
    recordSchema: gameSchema,
    // Replaced as each game arrives (in place: the file's key order is the API's), so that the
    // parser's copies die young: at 145,000 games they held 8 MB (bench/RESULTS.md).
    keep: (game) => {
      game.genre = share(game.genre);
      game.developer = share(game.developer);
      return game;
    },
    check: (games) => [
      ...findDuplicates(games, 'id'),
      ...findDuplicates(games, 'title'),
      ...findLongRatings(games),
    ],
  });
}

/**
 * Reads and validates the seed file, as a stream, and resolves to its games and its version; a
 * broken file names the bad record and field, a file too large for the process is refused.
 */
export const loadGames = (file: string) => gamesFile().load(file);

export const parseGames = (data: unknown, source = 'games'): Game[] =>
  gamesFile().parse(data, source);

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
