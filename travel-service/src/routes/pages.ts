import { CACHE_CONTROL, NotFound, Router } from 'service-kit';
import { pagePath } from '../format.js';
import { budgetPercents, budgetShares } from '../itineraries/generate.js';
import type { Itineraries, Planned } from '../itineraries/itineraries.js';
import type { Random } from '../itineraries/random.js';
import { chosenDestination, destinationParam, readPageNumber } from './params.js';

/** What the home page says when the picker is sent without a choice. */
export const NO_DESTINATION = 'Choose a destination in the list first, then press Show itinerary.';
/** The same, when the picker is a text field. */
export const NO_DESTINATION_TYPED = 'Type a destination first, then press Show itinerary.';

/**
 * The most destinations the home page's picker lists: a longer list is more than a reader can
 * scroll through, and makes the page grow with the data. Past it, the picker is a text field,
 * and the destinations are listed a page at a time at /destinations.
 */
export const PICKER_MAX_DESTINATIONS = 300;
/** Destinations per page of /destinations. */
export const DESTINATIONS_PAGE_SIZE = 100;

/** The home page: the picker (the destinations, when few), and an itinerary featured at random. */
function homeLocals(itineraries: Itineraries, random: Random) {
  const featured = itineraries.pick(random);
  return {
    title: 'Plan a trip',
    destinations: itineraries.size <= PICKER_MAX_DESTINATIONS ? itineraries.all : undefined,
    destinationCount: itineraries.size,
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
          const locals = homeLocals(itineraries, random);
          const problem = locals.destinations ? NO_DESTINATION : NO_DESTINATION_TYPED;
          await ctx.render('home.pug', { ...locals, problem });
          return;
        }
        ctx.set('Cache-Control', CACHE_CONTROL.stable);
        ctx.redirect(pagePath(found(name).slug));
      })
      // Every destination, a page at a time, by name: the home page's picker past its bound.
      .get('/destinations', async (ctx) => {
        const { page = 1 } = readPageNumber(ctx.query);
        const pages = Math.max(1, Math.ceil(itineraries.size / DESTINATIONS_PAGE_SIZE));
        if (page > pages) {
          throw new NotFound(
            `There is no page ${page} of destinations: they fill ${pages === 1 ? '1 page' : `${pages} pages`}.`,
          );
        }
        const offset = (page - 1) * DESTINATIONS_PAGE_SIZE;
        ctx.set('Cache-Control', CACHE_CONTROL.stable);
        await ctx.render('destinations.pug', {
          title: page > 1 ? `Destinations, page ${page}` : 'Destinations',
          description: `Every destination we plan trips to, by name: ${itineraries.size} in all.`,
          entries: itineraries.all.slice(offset, offset + DESTINATIONS_PAGE_SIZE),
          first: offset + 1,
          total: itineraries.size,
          page,
          pages,
        });
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
