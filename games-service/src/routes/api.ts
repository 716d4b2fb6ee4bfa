import Router from '@koa/router';
import type { Catalogue } from '../catalogue/catalogue.js';
import { type Game, toSummary } from '../catalogue/game.js';
import { httpError } from '../http/errors.js';
import { memoize, prepareJson, sendPrepared } from '../http/respond.js';
import { integerQuery, parseId } from './params.js';

export const TOP_RATED_API_COUNT = 10;
export const MAX_LIMIT = 1000;
/** The catalogue never changes while the process runs; a restart may bring a new one. */
const CACHE = 'public, max-age=300';

/** The read-only JSON API under /api/games. Answers are serialized once and reused. */
export function apiRoutes(catalogue: Catalogue): Router {
  const router = new Router({ prefix: '/api/games' });
  const all = prepareJson(catalogue.games.map(toSummary));
  const topRated = prepareJson(catalogue.topRated(TOP_RATED_API_COUNT).map(toSummary));
  const hiddenGems = prepareJson(
    catalogue.hiddenGems().map((game) => ({ ...toSummary(game), reviewCount: game.reviewCount })),
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

  // Literal routes first: '/:id' would otherwise read them as ids.
  router
    .get('/', (ctx) => sendPrepared(ctx, all, CACHE))
    .get('/top-rated', (ctx) => sendPrepared(ctx, topRated, CACHE))
    .get('/hidden-gems', (ctx) => sendPrepared(ctx, hiddenGems, CACHE))
    .get('/genre', () => {
      throw httpError(404, 'Name a genre: /api/games/genre/:genre');
    })
    .get('/genre/:genre', (ctx) => {
      const limit = integerQuery(ctx, 'limit', 1, MAX_LIMIT);
      const games = catalogue.byGenre(ctx.params.genre ?? '', limit);
      if (games.length === 0) throw httpError(404, `No game has the genre ${ctx.params.genre}`);
      if (limit === undefined) return sendPrepared(ctx, byGenre(games[0]?.genre ?? ''), CACHE);
      sendPrepared(ctx, prepareJson(games.map(toSummary)), CACHE);
    })
    .get('/:id', (ctx) => sendPrepared(ctx, gameById(findGame(ctx.params.id)), CACHE))
    .get('/:id/recommendations', (ctx) =>
      sendPrepared(ctx, recommendations(findGame(ctx.params.id)), CACHE),
    );
  return router;
}
