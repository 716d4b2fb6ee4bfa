import { type Parameter, parameterValidator } from 'service-kit';
import { gameSchema } from '../catalogue/game.js';

export const idParameter: Parameter = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The game id: an integer from 1 to 2^53 - 1, the largest a game may have',
  schema: gameSchema.properties.id,
};

export const limitParameter: Parameter = {
  name: 'limit',
  in: 'query',
  description: 'At most this many games',
  schema: { type: 'integer', minimum: 1, maximum: 1000 },
};

/**
 * The game id of a route's path (`/api/games/:id`, `/games/:id`); a 400 otherwise, one that
 * names the largest id for a larger integer.
 */
export const readGameId = parameterValidator<{ id: number }>([idParameter], {
  summary: ([problem]) => `The game id ${problem?.message}`,
});

/** The `limit` of a list that takes nothing else; other parameters are ignored. */
export const readLimit = parameterValidator<{ limit?: number }>([limitParameter], {
  unknown: 'ignore',
});
