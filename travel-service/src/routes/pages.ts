import { BadRequest, NotFound, Router, renderView } from 'service-kit';
import { budgetShares } from '../itineraries/generate.js';
import type { Itineraries, Planned } from '../itineraries/itineraries.js';
import type { Random } from '../itineraries/random.js';
import { pagePath } from '../view-helpers.js';
import { NO_STORE, STABLE } from './cache-control.js';
import { checkDestinationName, destinationParam } from './params.js';

/** The server-rendered pages. */
export function pageRoutes(itineraries: Itineraries, random: Random): Router {
  const found = (name: string): Planned => {
    const entry = itineraries.find(name);
    if (!entry) throw new NotFound(`We have no itinerary for ${name}.`);
    return entry;
  };

  return (
    new Router()
      // A featured itinerary picked on every load: rendered each time, never stored.
      .get('/', async (ctx) => {
        const featured = itineraries.pick(random);
        ctx.set('Cache-Control', NO_STORE);
        ctx.body = await renderView(ctx, 'home', {
          title: 'Plan a trip',
          destinations: itineraries.all,
          featured,
          shares: budgetShares(featured.itinerary),
        });
      })
      // The destination form of the home page, for browsers without JavaScript.
      .get('/itineraries', (ctx) => {
        const asked = ctx.query.destination;
        if (Array.isArray(asked)) throw new BadRequest('Choose one destination.');
        ctx.set('Cache-Control', STABLE);
        if (asked === undefined || asked === '') return ctx.redirect('/');
        ctx.redirect(pagePath(found(checkDestinationName(asked)).slug));
      })
      .get('/itineraries/:destination', async (ctx) => {
        const entry = found(destinationParam(ctx));
        const { destination, itinerary } = entry;
        ctx.set('Cache-Control', STABLE);
        ctx.body = await renderView(ctx, 'itinerary', {
          title: `${destination.name} itinerary`,
          description: `A ${itinerary.activities.length}-activity plan for ${destination.name}, with prices and the total budget.`,
          entry,
          shares: budgetShares(itinerary),
        });
      })
  );
}
