// travel-service's routes, as a minimal app does their work: the itineraries planned from the
// same seed (ITINERARY_SEED) by the service's compiled domain code, its compiled templates. The
// page locals mirror travel-service/src/routes/pages.ts (which a floor may not import).
import { join } from 'node:path';
import { repoRoot } from '../process.js';
import { type FloorSet, fromDist, pageRenderer, sendJson } from './floor.js';

interface Planned {
  slug: string;
  destination: { name: string };
  itinerary: { activities: unknown[] };
}
interface Itineraries {
  readonly all: readonly Planned[];
  find(name: string): Planned | undefined;
  pick(random: () => number): Planned;
}
type Budget = (itinerary: Planned['itinerary']) => unknown;

async function loadDomain() {
  const { loadDestinations } = await fromDist<{ loadDestinations: (file: string) => unknown[] }>(
    'travel-service',
    'itineraries/load.js',
  );
  const { planItineraries } = await fromDist<{
    planItineraries: (destinations: unknown[], seed: string) => Itineraries;
  }>('travel-service', 'itineraries/itineraries.js');
  const budget = await fromDist<{ budgetShares: Budget; budgetPercents: Budget }>(
    'travel-service',
    'itineraries/generate.js',
  );
  const seed = process.env.ITINERARY_SEED;
  if (!seed) throw new Error('the travel floors need the service’s ITINERARY_SEED');
  const destinations = loadDestinations(
    process.env.DESTINATIONS_FILE || join(repoRoot, 'seeds', 'destinations.json'),
  );
  return { itineraries: planItineraries(destinations, seed), ...budget };
}

export const travelFloors: FloorSet = async (captured) => {
  const { itineraries, budgetShares, budgetPercents } = await loadDomain();
  const render = await pageRenderer('travel-service', captured);
  const found = (name: string | undefined) => {
    const entry = itineraries.find(name ?? '');
    if (!entry) throw new Error(`no itinerary for ${name}`);
    return entry;
  };
  return {
    'itinerary-json': {
      path: '/api/itineraries/:destination',
      handle: (ctx) => sendJson(ctx, found(ctx.params.destination).itinerary),
    },
    'home-page': {
      path: '/',
      handle: (ctx) => {
        const featured = itineraries.pick(Math.random);
        render(ctx, 'home', {
          title: 'Plan a trip',
          destinations: itineraries.all,
          featured,
          shares: budgetShares(featured.itinerary),
          percents: budgetPercents(featured.itinerary),
        });
      },
    },
    'itinerary-page': {
      path: '/itineraries/:destination',
      handle: (ctx) => {
        const entry = found(ctx.params.destination);
        const { destination, itinerary } = entry;
        render(ctx, 'itinerary', {
          title: `${destination.name} itinerary`,
          description: `A ${itinerary.activities.length}-activity plan for ${destination.name}, with prices and the total budget.`,
          entry,
          shares: budgetShares(itinerary),
          percents: budgetPercents(itinerary),
        });
      },
    },
  };
};
