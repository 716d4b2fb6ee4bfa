import Router from '@koa/router';
import {
  type Catalogue,
  HIDDEN_GEM_MAX_REVIEWS,
  HIDDEN_GEM_MIN_RATING,
} from '../catalogue/catalogue.js';
import type { Game } from '../catalogue/game.js';
import { httpError } from '../http/errors.js';
import { parseId } from './params.js';

export const HOME_GAME_COUNT = 9;
export const TOP_RATED_PAGE_COUNT = 15;
const CACHE = 'public, max-age=300';
const RANDOM = 'no-store';

/** The server-rendered pages. */
export function pageRoutes(catalogue: Catalogue, random: () => number): Router {
  const router = new Router();
  const gameOr404 = (raw: string | undefined): Game => {
    const game = catalogue.byId(parseId(raw) ?? 0);
    if (!game) throw httpError(404, 'We could not find that game.');
    return game;
  };

  router
    .get('/', async (ctx) => {
      ctx.set('Cache-Control', RANDOM);
      await ctx.render('home', {
        title: 'Discover games',
        games: catalogue.sample(HOME_GAME_COUNT, random),
      });
    })
    .get('/top-rated', async (ctx) => {
      ctx.set('Cache-Control', CACHE);
      await ctx.render('top-rated', {
        title: 'Top rated',
        games: catalogue.topRated(TOP_RATED_PAGE_COUNT),
      });
    })
    .get('/hidden-gems', async (ctx) => {
      ctx.set('Cache-Control', CACHE);
      await ctx.render('hidden-gems', {
        title: 'Hidden gems',
        games: catalogue.hiddenGems(),
        minRating: HIDDEN_GEM_MIN_RATING,
        maxReviews: HIDDEN_GEM_MAX_REVIEWS,
      });
    })
    .get('/random', (ctx) => {
      const [game] = catalogue.sample(1, random);
      ctx.set('Cache-Control', RANDOM);
      ctx.redirect(game ? `/games/${game.id}` : '/');
    })
    .get('/games/:id', async (ctx) => {
      const game = gameOr404(ctx.params.id);
      ctx.set('Cache-Control', CACHE);
      await ctx.render('game', {
        title: game.title,
        description: game.shortDescription,
        game,
        recommendations: catalogue.recommendations(game),
      });
    });
  return router;
}
