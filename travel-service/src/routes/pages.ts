import Router from '@koa/router';
import type { Context } from 'koa';
import { memoize } from '../cache.js';
import { httpError } from '../http/errors.js';
import { prepare, sendPrepared } from '../http/respond.js';
import { budgetShares } from '../itineraries/generate.js';
import type { Itineraries, Planned } from '../itineraries/itineraries.js';
import type { Random } from '../itineraries/random.js';
import { pagePath } from '../view-helpers.js';
import { checkDestinationName, destinationParam } from './params.js';

const CACHE = 'public, max-age=300';
const RANDOM = 'no-store';

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
export function pageRoutes(itineraries: Itineraries, random: Random): Router {
  const router = new Router();
  /** The home page only varies by the itinerary it features: one rendering per destination, kept encoded. */
  const homeFeaturing = memoize((_slug: string, ctx: Context, featured: Planned) =>
    renderView(ctx, 'home', {
      title: 'Plan a trip',
      destinations: itineraries.all,
      featured,
      shares: budgetShares(featured.itinerary),
    }).then((html) => Buffer.from(html)),
  );
  /** An itinerary page never changes: rendered once per destination, then served like the API's JSON. */
  const itineraryPage = memoize((_slug: string, ctx: Context, entry: Planned) =>
    renderView(ctx, 'itinerary', {
      title: `${entry.destination.name} itinerary`,
      description: `A ${entry.itinerary.activities.length}-activity plan for ${entry.destination.name}, with prices and the total budget.`,
      entry,
      shares: budgetShares(entry.itinerary),
    }).then((html) => prepare(html, 'text/html; charset=utf-8')),
  );
  const found = (name: string): Planned => {
    const entry = itineraries.find(name);
    if (!entry) throw httpError(404, `We have no itinerary for ${name}.`);
    return entry;
  };

  router
    .get('/', async (ctx) => {
      const featured = itineraries.pick(random);
      ctx.set('Cache-Control', RANDOM);
      ctx.type = 'html';
      ctx.body = await homeFeaturing(featured.slug, ctx, featured);
    })
    // The destination form of the home page, for browsers without JavaScript.
    .get('/itineraries', (ctx) => {
      const asked = ctx.query.destination;
      if (Array.isArray(asked)) throw httpError(400, 'Choose one destination.');
      ctx.set('Cache-Control', CACHE);
      if (asked === undefined || asked === '') return ctx.redirect('/');
      ctx.redirect(pagePath(found(checkDestinationName(asked)).slug));
    })
    .get('/itineraries/:destination', async (ctx) => {
      const entry = found(destinationParam(ctx));
      sendPrepared(ctx, await itineraryPage(entry.slug, ctx, entry), CACHE);
    });
  return router;
}
