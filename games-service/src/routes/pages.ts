import { type Context, NotFound, Router, renderView } from 'service-kit';
import {
  type Catalogue,
  HIDDEN_GEM_MAX_REVIEWS,
  HIDDEN_GEM_MIN_RATING,
} from '../catalogue/catalogue.js';
import type { Game } from '../catalogue/game.js';
import { parseId } from './params.js';

export const HOME_GAME_COUNT = 9;
export const TOP_RATED_PAGE_COUNT = 15;
/** Pages of data that cannot change while the process runs. */
const CACHE = 'public, max-age=300';
/** Pages that are random on every load. */
const RANDOM = 'no-store';

/** The server-rendered pages. */
export function pageRoutes(catalogue: Catalogue, random: () => number): Router {
  const page = async (
    ctx: Context,
    view: string,
    locals: Record<string, unknown>,
    cacheControl = CACHE,
  ) => {
    ctx.set('Cache-Control', cacheControl);
    ctx.body = await renderView(ctx, view, locals);
  };
  const gameOr404 = (raw: string | undefined): Game => {
    const game = catalogue.byId(parseId(raw) ?? 0);
    if (!game) throw new NotFound('We could not find that game.');
    return game;
  };

  return new Router()
    .get('/', (ctx) =>
      page(
        ctx,
        'home',
        { title: 'Discover games', games: catalogue.sample(HOME_GAME_COUNT, random) },
        RANDOM,
      ),
    )
    .get('/top-rated', (ctx) =>
      page(ctx, 'top-rated', {
        title: 'Top rated',
        games: catalogue.topRated(TOP_RATED_PAGE_COUNT),
      }),
    )
    .get('/hidden-gems', (ctx) =>
      page(ctx, 'hidden-gems', {
        title: 'Hidden gems',
        games: catalogue.hiddenGems(),
        minRating: HIDDEN_GEM_MIN_RATING,
        maxReviews: HIDDEN_GEM_MAX_REVIEWS,
      }),
    )
    .get('/random', (ctx) => {
      const [game] = catalogue.sample(1, random);
      ctx.set('Cache-Control', RANDOM);
      ctx.redirect(game ? `/games/${game.id}` : '/');
    })
    .get('/games/:id', (ctx) => {
      const game = gameOr404(ctx.params.id);
      return page(ctx, 'game', {
        title: game.title,
        description: game.shortDescription,
        game,
        recommendations: catalogue.recommendations(game),
      });
    });
}
