import { type Parameter, pageParameters, parameterValidator } from 'service-kit';
import { gameSchema } from '../catalogue/game.js';

export const idParameter: Parameter = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The game id: an integer from 1 to 2^53 - 1, the largest a game may have',
  schema: gameSchema.properties.id,
};

export const limitParameter = pageParameters.limit('At most this many games');

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
