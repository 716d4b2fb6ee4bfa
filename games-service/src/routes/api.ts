import {
  answerList,
  answerStable,
  type Context,
  NotFound,
  type Operation,
  pagingHeaders,
  Router,
  setPageHeaders,
} from 'service-kit';
import type { Catalogue } from '../catalogue/catalogue.js';
import { type Game, gameSchema, summarySchema, toSummary } from '../catalogue/game.js';
import { idParameter, limitParameter, readGameId, readLimit } from './params.js';
import { LIST_PARAMETERS, readSearchQuery } from './search-params.js';

export const TOP_RATED_API_COUNT = 10;

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
 * `/:id`, which would otherwise read them as ids. Any cache may keep its answers: the
 * catalogue is fixed while the process runs.
 */
export function apiOperations(catalogue: Catalogue): Operation[] {
  const findGame = (ctx: Context): Game => {
    const { id } = readGameId(ctx.params);
    const game = catalogue.byId(id);
    if (!game) throw new NotFound(`No game with id ${id}`);
    return game;
  };
  const toGem = (game: Game) => ({ ...toSummary(game), reviewCount: game.reviewCount });
  return [
    {
      id: 'listGames',
      method: 'get',
      path: '/api/games',
      summary: 'Every game, or those a search finds',
      description:
        'Without parameters, every game by id. The parameters filter, sort and page them; ' +
        '`X-Total-Count` tells how many games match in all, always exactly (never capped, ' +
        'whatever the query), and `Link` points to the `next` and `prev` pages. An unknown, ' +
        'repeated or invalid parameter is a 400 naming each problem, and so are `year` with ' +
        '`from` or `to`, and a `from` after `to`. Without `limit`, the list is written as it is ' +
        "made (no `Content-Length`), under a weak `ETag` of the catalogue's version.",
      parameters: LIST_PARAMETERS,
      responses: {
        200: {
          description: 'The matching games (every game without parameters), one page of them',
          schema: summaries,
          headers: pagingHeaders('games'),
        },
      },
      errors: [400],
      handler: (ctx) => {
        const query = readSearchQuery(ctx.query);
        const search = { sort: 'id', ...query } as const;
        if (query.limit !== undefined) {
          const { total, games } = catalogue.search(search);
          setPageHeaders(ctx, { params: query, shown: games.length, total });
          return answerStable(ctx, games.map(toSummary));
        }
        // Without a limit the list grows with the catalogue: counted now, found when written.
        const { total } = catalogue.search({ ...search, limit: 0 });
        const shown = Math.max(0, total - (query.offset ?? 0));
        setPageHeaders(ctx, { params: query, shown, total });
        answerList(ctx, () => catalogue.search(search).games, catalogue.version, {
          shape: toSummary,
          count: shown,
        });
      },
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
      handler: (ctx) => answerStable(ctx, catalogue.topRated(TOP_RATED_API_COUNT).map(toSummary)),
    },
    {
      id: 'hiddenGems',
      method: 'get',
      path: '/api/games/hidden-gems',
      summary: 'Highly rated games that few people have reviewed',
      description: 'Written as it is made (no `Content-Length`).',
      responses: { 200: { description: 'Every hidden gem, best first', schema: gems } },
      errors: [],
      handler: (ctx) =>
        answerList(ctx, () => catalogue.hiddenGems(), catalogue.version, { shape: toGem }),
    },
    {
      id: 'gamesByGenre',
      method: 'get',
      path: '/api/games/genre/:genre',
      summary: 'The games of a genre',
      description:
        'The genre is matched case-insensitively. Best-rated first; without `limit`, written as ' +
        'it is made (no `Content-Length`). ' +
        '`/api/games/genre/recommendations` also fits `/api/games/{id}/recommendations`: ' +
        'it is this route (the genre `recommendations`), which is matched first.',
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
        const { limit } = readLimit(ctx.query);
        const genre = ctx.params.genre ?? '';
        const count = catalogue.genreSize(genre);
        if (count === 0) throw new NotFound(`No game has the genre ${genre}`);
        if (limit !== undefined) answerStable(ctx, catalogue.byGenre(genre, limit).map(toSummary));
        // Without a limit the list grows with the catalogue: found when written.
        else
          answerList(ctx, () => catalogue.byGenre(genre), catalogue.version, {
            shape: toSummary,
            count,
          });
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
      handler: (ctx) => answerStable(ctx, findGame(ctx)),
    },
    {
      id: 'gameRecommendations',
      method: 'get',
      path: '/api/games/:id/recommendations',
      summary: 'Up to 3 other games of the same genre, best-rated first',
      description:
        '`/api/games/genre/recommendations` is not this route but `/api/games/genre/{genre}`, ' +
        'which is matched first.',
      parameters: [idParameter],
      responses: { 200: { description: 'The recommended games', schema: summaries } },
      errors: [400, 404],
      handler: (ctx) => answerStable(ctx, catalogue.recommendations(findGame(ctx)).map(toSummary)),
    },
  ];
}

/** A helpful 404 for a genre left out, before `/api/games/:id` reads `genre` as an id. */
export function missingGenreRoute(): Router {
  return new Router().all('/api/games/genre', () => {
    throw new NotFound('Name a genre: /api/games/genre/:genre');
  });
}
