import { type Parameter, parameterValidator } from 'service-kit';

export const idParameter: Parameter = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The game id, a positive integer',
  schema: { type: 'integer', minimum: 1 },
};

export const limitParameter: Parameter = {
  name: 'limit',
  in: 'query',
  description: 'At most this many games',
  schema: { type: 'integer', minimum: 1, maximum: 1000 },
};

/** The game id of a route's path (`/api/games/:id`, `/games/:id`); a 400 otherwise. */
export const readGameId = parameterValidator<{ id: number }>([idParameter], {
  summary: () => 'The game id must be a positive integer',
  messages: { id: 'must be a positive integer' },
});

/** The `limit` of a list that takes nothing else; other parameters are ignored. */
export const readLimit = parameterValidator<{ limit?: number }>([limitParameter], {
  unknown: 'ignore',
});
