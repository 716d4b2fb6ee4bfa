import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import { type Game, gameSchema } from './game.js';

export class SeedError extends Error {
  override name = 'SeedError';
}

const validateGames = new Ajv({
  allErrors: true,
  allowUnionTypes: true,
  multipleOfPrecision: 9,
}).compile<Game[]>({
  type: 'array',
  minItems: 1,
  items: gameSchema,
});

/** Reads and validates the seed file; a broken file names the bad record and field. */
export function loadGames(file: string): Game[] {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new SeedError(`${file}: cannot read the games: ${(error as Error).message}`);
  }
  return parseGames(data, file);
}

export function parseGames(data: unknown, source = 'games'): Game[] {
  if (!validateGames(data)) {
    const problems = (validateGames.errors ?? []).map((error) => describe(error, data));
    throw new SeedError(`${source}: invalid games:\n  ${problems.join('\n  ')}`);
  }
  const problems = [
    ...findDuplicates(data, 'id'),
    ...findDuplicates(data, 'title'),
    ...findLongRatings(data),
  ];
  if (problems.length > 0) {
    throw new SeedError(`${source}: invalid games:\n  ${problems.join('\n  ')}`);
  }
  return data;
}

function describe(error: ErrorObject, data: unknown): string {
  const [, index, field] = error.instancePath.split('/');
  if (index === undefined) return `the file ${error.message}`;
  const record = Array.isArray(data) ? data[Number(index)] : undefined;
  const label =
    record && typeof record === 'object' && 'title' in record
      ? `record ${index} (${JSON.stringify(record.title)})`
      : `record ${index}`;
  const missing = error.params.missingProperty ?? error.params.additionalProperty;
  const name = field ?? missing;
  return name === undefined
    ? `${label}: ${error.message}`
    : `${label}: field "${name}" ${error.keyword === 'additionalProperties' ? 'is not allowed' : error.message}`;
}

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
