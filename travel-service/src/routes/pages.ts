import { BadRequest, type Context, NotFound, Router, renderView } from 'service-kit';
import { budgetShares } from '../itineraries/generate.js';
import type { Itineraries, Planned } from '../itineraries/itineraries.js';
import type { Random } from '../itineraries/random.js';
import { pagePath } from '../view-helpers.js';
import { checkDestinationName, destinationParam } from './params.js';

/** Pages of data that cannot change while the process runs. */
const CACHE = 'public, max-age=300';
/** Pages that are random on every load. */
const RANDOM = 'no-store';

/** The server-rendered pages. */
export function pageRoutes(itineraries: Itineraries, random: Random): Router {
  const page = async (
    ctx: Context,
    view: string,
    locals: Record<string, unknown>,
    cacheControl = CACHE,
  ) => {
    ctx.set('Cache-Control', cacheControl);
    ctx.body = await renderView(ctx, view, locals);
  };
  const found = (name: string): Planned => {
    const entry = itineraries.find(name);
    if (!entry) throw new NotFound(`We have no itinerary for ${name}.`);
    return entry;
  };

  return (
    new Router()
      .get('/', (ctx) => {
        const featured = itineraries.pick(random);
        return page(
          ctx,
          'home',
          {
            title: 'Plan a trip',
            destinations: itineraries.all,
            featured,
            shares: budgetShares(featured.itinerary),
          },
          RANDOM,
        );
      })
      // The destination form of the home page, for browsers without JavaScript.
      .get('/itineraries', (ctx) => {
        const asked = ctx.query.destination;
        if (Array.isArray(asked)) throw new BadRequest('Choose one destination.');
        ctx.set('Cache-Control', CACHE);
        if (asked === undefined || asked === '') return ctx.redirect('/');
        ctx.redirect(pagePath(found(checkDestinationName(asked)).slug));
      })
      .get('/itineraries/:destination', (ctx) => {
        const entry = found(destinationParam(ctx));
        return page(ctx, 'itinerary', {
          title: `${entry.destination.name} itinerary`,
          description: `A ${entry.itinerary.activities.length}-activity plan for ${entry.destination.name}, with prices and the total budget.`,
          entry,
          shares: budgetShares(entry.itinerary),
        });
      })
  );
}
