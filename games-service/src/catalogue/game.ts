import type { JSONSchemaType } from 'ajv';

export interface Game {
  id: number;
  title: string;
  releaseYear: number;
  /** Out of 10 with one decimal; null while the game is unreleased. */
  rating: number | null;
  description: string;
  shortDescription: string;
  developer: string;
  genre: string;
  reviewCount: number;
}

const text = { type: 'string', minLength: 1, maxLength: 2000 } as const;

const properties = {
  id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
  title: { ...text, maxLength: 200 },
  releaseYear: { type: 'integer', minimum: 1950, maximum: 2100 },
  // ajv's JSONSchemaType cannot type a required nullable number; the tests check this one.
  // No `multipleOf: 0.1`: binary floats fail it in most validators; the loader checks the decimal.
  rating: {
    type: ['number', 'null'],
    minimum: 0,
    maximum: 10,
    description: 'Out of 10 with one decimal; null while the game is unreleased',
  } as never,
  description: text,
  shortDescription: { ...text, maxLength: 300 },
  developer: { ...text, maxLength: 200 },
  genre: { ...text, maxLength: 100 },
  reviewCount: { type: 'integer', minimum: 0 },
} as const;

/** The one definition of a game: validates the seed file and documents the API. */
export const gameSchema: JSONSchemaType<Game> = {
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties) as (keyof Game)[],
  properties,
};

/** The fields of a game in list answers. */
export type GameSummary = Pick<Game, 'id' | 'title' | 'genre' | 'releaseYear' | 'rating'>;
const SUMMARY_FIELDS = ['id', 'title', 'genre', 'releaseYear', 'rating'] as const;

export const summarySchema = {
  type: 'object',
  additionalProperties: false,
  required: [...SUMMARY_FIELDS] as string[],
  properties: Object.fromEntries(SUMMARY_FIELDS.map((field) => [field, properties[field]])),
};

export function toSummary({ id, title, genre, releaseYear, rating }: Game): GameSummary {
  return { id, title, genre, releaseYear, rating };
}
