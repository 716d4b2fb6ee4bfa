import Router, { type RouterContext } from '@koa/router';
import { httpError } from '../http/errors.js';
import { budgetShares } from '../itineraries/generate.js';
import type { Itineraries, Planned } from '../itineraries/itineraries.js';
import type { Random } from '../itineraries/random.js';
import { pagePath } from '../view-helpers.js';
import { checkDestinationName, destinationParam } from './params.js';

const CACHE = 'public, max-age=300';
const RANDOM = 'no-store';

/** The server-rendered pages. */
export function pageRoutes(itineraries: Itineraries, random: Random): Router {
  const router = new Router();
  const found = (name: string): Planned => {
    const entry = itineraries.find(name);
    if (!entry) throw httpError(404, `We have no itinerary for ${name}.`);
    return entry;
  };

  router
    .get('/', async (ctx) => {
      const featured = itineraries.pick(random);
      ctx.set('Cache-Control', RANDOM);
      await ctx.render('home', {
        title: 'Plan a trip',
        destinations: itineraries.all,
        featured,
        shares: budgetShares(featured.itinerary),
      });
    })
    // The destination form of the home page, for browsers without JavaScript.
    .get('/itineraries', (ctx) => {
      const asked = ctx.query.destination;
      if (Array.isArray(asked)) throw httpError(400, 'Choose one destination.');
      ctx.set('Cache-Control', CACHE);
      if (asked === undefined || asked === '') return ctx.redirect('/');
      ctx.redirect(pagePath(found(checkDestinationName(asked)).slug));
    })
    .get('/itineraries/:destination', async (ctx: RouterContext) => {
      const entry = found(destinationParam(ctx));
      ctx.set('Cache-Control', CACHE);
      await ctx.render('itinerary', {
        title: `${entry.destination.name} itinerary`,
        description: `A ${entry.itinerary.activities.length}-activity plan for ${entry.destination.name}, with prices and the total budget.`,
        entry,
        shares: budgetShares(entry.itinerary),
      });
    });
  return router;
}
