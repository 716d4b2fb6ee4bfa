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

/** The one definition of a game: validates the seed file and documents the API. */
export const gameSchema: JSONSchemaType<Game> = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'title',
    'releaseYear',
    'rating',
    'description',
    'shortDescription',
    'developer',
    'genre',
    'reviewCount',
  ],
  properties: {
    id: { type: 'integer', minimum: 1 },
    title: { ...text, maxLength: 200 },
    releaseYear: { type: 'integer', minimum: 1950, maximum: 2100 },
    // ajv's JSONSchemaType cannot type a required nullable number; the cast is checked by the tests.
    rating: { type: ['number', 'null'], minimum: 0, maximum: 10, multipleOf: 0.1 } as never,
    description: text,
    shortDescription: { ...text, maxLength: 300 },
    developer: { ...text, maxLength: 200 },
    genre: { ...text, maxLength: 100 },
    reviewCount: { type: 'integer', minimum: 0 },
  },
};

/** The fields of a game in list answers. */
export type GameSummary = Pick<Game, 'id' | 'title' | 'genre' | 'releaseYear' | 'rating'>;

export function toSummary({ id, title, genre, releaseYear, rating }: Game): GameSummary {
  return { id, title, genre, releaseYear, rating };
}
