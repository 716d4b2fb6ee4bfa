import Router from '@koa/router';
import type { Context } from 'koa';
import { LruCache, memoize, once } from '../cache.js';
import {
  type Catalogue,
  HIDDEN_GEM_MAX_REVIEWS,
  HIDDEN_GEM_MIN_RATING,
} from '../catalogue/catalogue.js';
import type { Game } from '../catalogue/game.js';
import { httpError } from '../http/errors.js';
import { prepare, sendPrepared } from '../http/respond.js';
import { parseId } from './params.js';

export const HOME_GAME_COUNT = 9;
export const TOP_RATED_PAGE_COUNT = 15;
/** Rendered pages kept; a game page is about 6 KB. */
const PAGE_CACHE_SIZE = 2000;
const CACHE = 'public, max-age=300';

/** Renders a Pug view to a string (koa-views runs with autoRender off). */
export function renderView(
  ctx: Context,
  view: string,
  locals: Record<string, unknown>,
): Promise<string> {
  // The file name with its extension spares koa-views a failing stat on every render.
  return ctx.render(`${view}.pug`, locals) as unknown as Promise<string>;
}

/** The server-rendered pages. */
export function pageRoutes(catalogue: Catalogue, random: () => number): Router {
  /** Pages that only depend on their path are rendered once, then served like the API's JSON. */
  const renderedPage = memoize(
    (_path: string, ctx: Context, view: string, locals: () => Record<string, unknown>) =>
      renderView(ctx, view, locals()).then((html) => prepare(html, 'text/html; charset=utf-8')),
    PAGE_CACHE_SIZE,
  );
  const sendCachedPage = async (
    ctx: Context,
    view: string,
    locals: () => Record<string, unknown>,
  ) => sendPrepared(ctx, await renderedPage(ctx.path, ctx, view, locals), CACHE);

  /**
   * The home page is random on every load, so it is assembled rather than rendered: the page
   * around the cards is rendered once, and each game's card once, both kept as encoded bytes.
   */
  const CARDS = '<!--cards-->';
  const homeShell = once(async (ctx: Context) =>
    (await renderView(ctx, 'home', { title: 'Discover games', cards: CARDS }))
      .split(CARDS)
      .map((part) => Buffer.from(part)),
  );
  const cards = new LruCache<number, Buffer>(PAGE_CACHE_SIZE);
  const cardsOf = async (ctx: Context, games: readonly Game[]): Promise<Buffer[]> => {
    const html: Buffer[] = [];
    for (const game of games) {
      let card = cards.get(game.id);
      if (!card) {
        card = Buffer.from(await renderView(ctx, 'game-card', { game }));
        cards.set(game.id, card);
      }
      html.push(card);
    }
    return html;
  };

  const gameOr404 = (raw: string | undefined): Game => {
    const game = catalogue.byId(parseId(raw) ?? 0);
    if (!game) throw httpError(404, 'We could not find that game.');
    return game;
  };

  return new Router()
    .get('/', async (ctx) => {
      const [before, after] = await homeShell(ctx);
      const picks = await cardsOf(ctx, catalogue.sample(HOME_GAME_COUNT, random));
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'html';
      ctx.body = Buffer.concat([before ?? Buffer.alloc(0), ...picks, after ?? Buffer.alloc(0)]);
    })
    .get('/top-rated', (ctx) =>
      sendCachedPage(ctx, 'top-rated', () => ({
        title: 'Top rated',
        games: catalogue.topRated(TOP_RATED_PAGE_COUNT),
      })),
    )
    .get('/hidden-gems', (ctx) =>
      sendCachedPage(ctx, 'hidden-gems', () => ({
        title: 'Hidden gems',
        games: catalogue.hiddenGems(),
        minRating: HIDDEN_GEM_MIN_RATING,
        maxReviews: HIDDEN_GEM_MAX_REVIEWS,
      })),
    )
    .get('/random', (ctx) => {
      const [game] = catalogue.sample(1, random);
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect(game ? `/games/${game.id}` : '/');
    })
    .get('/games/:id', (ctx) => {
      const game = gameOr404(ctx.params.id);
      return sendCachedPage(ctx, 'game', () => ({
        title: game.title,
        description: game.shortDescription,
        game,
        recommendations: catalogue.recommendations(game),
      }));
    });
}
