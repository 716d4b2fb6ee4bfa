import Router from '@koa/router';
import type { Context } from 'koa';
import { httpError } from '../http/errors.js';
import { mount, type Operation } from '../http/operations.js';
import { type Prepared, prepareJson, sendPrepared } from '../http/respond.js';
import { activitySchema, itinerarySchema } from '../itineraries/generate.js';
import {
  type Itineraries,
  type Planned,
  summarySchema,
  toSummary,
} from '../itineraries/itineraries.js';
import { destinationParam, destinationParameter } from './params.js';

/** The itineraries never change while the process runs; a restart may bring new ones. */
const CACHE = 'public, max-age=300';

const summaries = { type: 'array', items: summarySchema };
const highlights = {
  type: 'array',
  items: {
    ...activitySchema,
    properties: { ...activitySchema.properties, highlight: { const: true } },
  },
};

/**
 * The read-only JSON API under /api/itineraries. Every answer is serialized once at start;
 * its compressed variants are made on first demand and kept.
 */
export function apiOperations(itineraries: Itineraries): Operation[] {
  const list = prepareJson(itineraries.all.map(({ itinerary }) => toSummary(itinerary)));
  const answers = new Map<Planned, { full: Prepared; highlights: Prepared }>();
  for (const entry of itineraries.all) {
    const { itinerary } = entry;
    answers.set(entry, {
      full: prepareJson(itinerary),
      highlights: prepareJson(itinerary.activities.filter((activity) => activity.highlight)),
    });
  }

  const answersFor = (ctx: Context) => {
    const name = destinationParam(ctx);
    const entry = itineraries.find(name);
    const found = entry && answers.get(entry);
    if (!found) throw httpError(404, `No itinerary for the destination ${JSON.stringify(name)}`);
    return found;
  };

  return [
    {
      id: 'listItineraries',
      method: 'get',
      path: '/api/itineraries',
      summary: 'A summary of every itinerary',
      description: 'One per destination, by destination name.',
      responses: { 200: { description: 'Every itinerary, in short', schema: summaries } },
      errors: [],
      handler: (ctx) => sendPrepared(ctx, list, CACHE),
    },
    {
      id: 'getItinerary',
      method: 'get',
      path: '/api/itineraries/:destination',
      summary: "A destination's itinerary, in full",
      description:
        'Its 3 to 7 activities in the order of the plan, with their prices and the total. ' +
        'The plan stays the same while the service runs.',
      parameters: [destinationParameter],
      responses: { 200: { description: 'The itinerary', schema: itinerarySchema } },
      errors: [400, 404],
      handler: (ctx) => sendPrepared(ctx, answersFor(ctx).full, CACHE),
    },
    {
      id: 'itineraryHighlights',
      method: 'get',
      path: '/api/itineraries/:destination/highlights',
      summary: "The highlighted activities of a destination's itinerary",
      description: 'In the order of the plan; an empty array when none is a highlight.',
      parameters: [destinationParameter],
      responses: { 200: { description: 'The highlights', schema: highlights } },
      errors: [400, 404],
      handler: (ctx) => sendPrepared(ctx, answersFor(ctx).highlights, CACHE),
    },
  ];
}

/** The API's router: its operations, in order. */
export function apiRouter(operations: readonly Operation[]): Router {
  return mount(new Router(), operations);
}
