import Router from '@koa/router';
import { memoize, once } from '../cache.js';
import type { Catalogue } from '../catalogue/catalogue.js';
import { type Game, gameSchema, summarySchema, toSummary } from '../catalogue/game.js';
import { httpError } from '../http/errors.js';
import { mount, type Operation } from '../http/operations.js';
import { prepareJson, sendPrepared } from '../http/respond.js';
import { idParameter, integerQuery, limitParameter, parseId } from './params.js';

export const TOP_RATED_API_COUNT = 10;
/** The catalogue never changes while the process runs; a restart may bring a new one. */
const CACHE = 'public, max-age=300';

const summaries = { type: 'array', items: summarySchema };
const gems = {
  type: 'array',
  items: {
    ...summarySchema,
    required: [...summarySchema.required, 'reviewCount'],
    properties: { ...summarySchema.properties, reviewCount: gameSchema.properties?.reviewCount },
  },
};

/**
 * The read-only JSON API under /api/games, in routing order: literal paths come before
 * `/:id`, which would otherwise read them as ids. Answers are serialized once and reused.
 */
export function apiOperations(catalogue: Catalogue): Operation[] {
  const all = once(() => prepareJson(catalogue.games.map(toSummary)));
  const topRated = once(() => prepareJson(catalogue.topRated(TOP_RATED_API_COUNT).map(toSummary)));
  const hiddenGems = once(() =>
    prepareJson(
      catalogue.hiddenGems().map((game) => ({ ...toSummary(game), reviewCount: game.reviewCount })),
    ),
  );
  const byGenre = memoize((genre: string) => prepareJson(catalogue.byGenre(genre).map(toSummary)));
  const gameById = memoize((game: Game) => prepareJson(game));
  const recommendations = memoize((game: Game) =>
    prepareJson(catalogue.recommendations(game).map(toSummary)),
  );

  const findGame = (raw: string | undefined): Game => {
    const id = parseId(raw);
    if (id === undefined) {
      throw httpError(400, 'The game id must be a positive integer', [
        { field: 'id', message: 'must be a positive integer' },
      ]);
    }
    const game = catalogue.byId(id);
    if (!game) throw httpError(404, `No game with id ${id}`);
    return game;
  };

  return [
    {
      id: 'listGames',
      method: 'get',
      path: '/api/games',
      summary: 'Every game',
      responses: { 200: { description: 'Every game, by id', schema: summaries } },
      errors: [],
      handler: (ctx) => sendPrepared(ctx, all(), CACHE),
    },
    {
      id: 'topRatedGames',
      method: 'get',
      path: '/api/games/top-rated',
      summary: `The ${TOP_RATED_API_COUNT} highest-rated games`,
      description:
        'Best first; ties go to the game with more reviews, then by title. Unrated games never appear.',
      responses: { 200: { description: 'The best games, best first', schema: summaries } },
      errors: [],
      handler: (ctx) => sendPrepared(ctx, topRated(), CACHE),
    },
    {
      id: 'hiddenGems',
      method: 'get',
      path: '/api/games/hidden-gems',
      summary: 'Highly rated games that few people have reviewed',
      responses: { 200: { description: 'Every hidden gem, best first', schema: gems } },
      errors: [],
      handler: (ctx) => sendPrepared(ctx, hiddenGems(), CACHE),
    },
    {
      id: 'gamesByGenre',
      method: 'get',
      path: '/api/games/genre/:genre',
      summary: 'The games of a genre',
      description: 'The genre is matched case-insensitively. Best-rated first.',
      parameters: [
        {
          name: 'genre',
          in: 'path',
          required: true,
          description: 'A genre, e.g. `RPG`',
          schema: { type: 'string' },
        },
        limitParameter,
      ],
      responses: { 200: { description: 'The games of the genre', schema: summaries } },
      errors: [400, 404],
      handler: (ctx) => {
        const limit = integerQuery(ctx, limitParameter);
        const games = catalogue.byGenre(ctx.params.genre ?? '', limit);
        if (games.length === 0) throw httpError(404, `No game has the genre ${ctx.params.genre}`);
        if (limit === undefined) return sendPrepared(ctx, byGenre(games[0]?.genre ?? ''), CACHE);
        sendPrepared(ctx, prepareJson(games.map(toSummary)), CACHE);
      },
    },
    {
      id: 'getGame',
      method: 'get',
      path: '/api/games/:id',
      summary: 'One game, in full',
      parameters: [idParameter],
      responses: { 200: { description: 'The game', schema: gameSchema } },
      errors: [400, 404],
      handler: (ctx) => sendPrepared(ctx, gameById(findGame(ctx.params.id)), CACHE),
    },
    {
      id: 'gameRecommendations',
      method: 'get',
      path: '/api/games/:id/recommendations',
      summary: 'Up to 3 other games of the same genre, best-rated first',
      parameters: [idParameter],
      responses: { 200: { description: 'The recommended games', schema: summaries } },
      errors: [400, 404],
      handler: (ctx) => sendPrepared(ctx, recommendations(findGame(ctx.params.id)), CACHE),
    },
  ];
}

/** The API's router: its operations, plus a helpful 404 for a genre left out. */
export function apiRouter(operations: readonly Operation[]): Router {
  const router = new Router();
  router.all('/api/games/genre', () => {
    throw httpError(404, 'Name a genre: /api/games/genre/:genre');
  });
  return mount(router, operations);
}
