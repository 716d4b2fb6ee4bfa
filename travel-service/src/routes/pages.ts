import { CACHE_CONTROL, NotFound, Router } from 'service-kit';
import { pagePath } from '../format.js';
import { budgetPercents, budgetShares } from '../itineraries/generate.js';
import type { Itineraries, Planned } from '../itineraries/itineraries.js';
import type { Random } from '../itineraries/random.js';
import { chosenDestination, destinationParam } from './params.js';

/** What the home page says when the picker is sent without a choice. */
export const NO_DESTINATION = 'Choose a destination in the list first, then press Show itinerary.';

/** The home page: every destination for the picker, and an itinerary featured at random. */
function homeLocals(itineraries: Itineraries, random: Random) {
  const featured = itineraries.pick(random);
  return {
    title: 'Plan a trip',
    destinations: itineraries.all,
    featured,
    shares: budgetShares(featured.itinerary),
    percents: budgetPercents(featured.itinerary),
  };
}

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
        ctx.set('Cache-Control', CACHE_CONTROL.noStore);
        await ctx.render('home.pug', homeLocals(itineraries, random));
      })
      // The destination form of the home page: redirects to the chosen itinerary. Sent without
      // a choice, it shows the home page again with a message beside the picker.
      .get('/itineraries', async (ctx) => {
        const name = chosenDestination(ctx);
        if (name === undefined) {
          ctx.status = 400;
          ctx.set('Cache-Control', CACHE_CONTROL.noStore);
          await ctx.render('home.pug', {
            ...homeLocals(itineraries, random),
            problem: NO_DESTINATION,
          });
          return;
        }
        ctx.set('Cache-Control', CACHE_CONTROL.stable);
        ctx.redirect(pagePath(found(name).slug));
      })
      .get('/itineraries/:destination', async (ctx) => {
        const entry = found(destinationParam(ctx));
        const { destination, itinerary } = entry;
        ctx.set('Cache-Control', CACHE_CONTROL.stable);
        await ctx.render('itinerary.pug', {
          title: `${destination.name} itinerary`,
          description: `A ${itinerary.activities.length}-activity plan for ${destination.name}, with prices and the total budget.`,
          entry,
          shares: budgetShares(itinerary),
          percents: budgetPercents(itinerary),
        });
      })
  );
}
