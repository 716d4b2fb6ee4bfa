import Router, { type RouterContext } from '@koa/router';
import { httpError } from '../http/errors.js';
import { type Prepared, prepareJson, sendPrepared } from '../http/respond.js';
import { type Itineraries, type Planned, toSummary } from '../itineraries/itineraries.js';
import { destinationParam } from './params.js';

/** The itineraries never change while the process runs; a restart may bring new ones. */
const CACHE = 'public, max-age=300';

/** The read-only JSON API under /api/itineraries, every answer serialized once at start. */
export function apiRoutes(itineraries: Itineraries): Router {
  const router = new Router({ prefix: '/api/itineraries' });
  const list = prepareJson(itineraries.all.map(({ itinerary }) => toSummary(itinerary)));
  const answers = new Map<Planned, { full: Prepared; highlights: Prepared }>();
  for (const entry of itineraries.all) {
    const { itinerary } = entry;
    answers.set(entry, {
      full: prepareJson(itinerary),
      highlights: prepareJson(itinerary.activities.filter((activity) => activity.highlight)),
    });
  }

  const answersFor = (ctx: RouterContext) => {
    const name = destinationParam(ctx);
    const entry = itineraries.find(name);
    const found = entry && answers.get(entry);
    if (!found) throw httpError(404, `No itinerary for the destination ${JSON.stringify(name)}`);
    return found;
  };

  router
    .get('/', (ctx) => sendPrepared(ctx, list, CACHE))
    .get('/:destination', (ctx) => sendPrepared(ctx, answersFor(ctx).full, CACHE))
    .get('/:destination/highlights', (ctx) => sendPrepared(ctx, answersFor(ctx).highlights, CACHE));
  return router;
}
