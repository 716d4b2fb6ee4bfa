import { type Context, NotFound, type Operation } from 'service-kit';
import { activitySchema, type Itinerary, itinerarySchema } from '../itineraries/generate.js';
import { type Itineraries, summarySchema, toSummary } from '../itineraries/itineraries.js';
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

/** The read-only JSON API under /api/itineraries, in routing order. */
export function apiOperations(itineraries: Itineraries): Operation[] {
  const itineraryOf = (ctx: Context): Itinerary => {
    const name = destinationParam(ctx);
    const entry = itineraries.find(name);
    if (!entry) throw new NotFound(`No itinerary for the destination ${JSON.stringify(name)}`);
    return entry.itinerary;
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
      handler: (ctx) => {
        ctx.set('Cache-Control', CACHE);
        ctx.body = itineraries.all.map(({ itinerary }) => toSummary(itinerary));
      },
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
      handler: (ctx) => {
        const itinerary = itineraryOf(ctx);
        ctx.set('Cache-Control', CACHE);
        ctx.body = itinerary;
      },
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
      handler: (ctx) => {
        const itinerary = itineraryOf(ctx);
        ctx.set('Cache-Control', CACHE);
        ctx.body = itinerary.activities.filter((activity) => activity.highlight);
      },
    },
  ];
}
