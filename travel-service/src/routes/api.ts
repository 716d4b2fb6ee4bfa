import { answerList, answerStable, type Context, NotFound, type Operation } from 'service-kit';
import { activitySchema, type Itinerary, itinerarySchema } from '../itineraries/generate.js';
import { type Itineraries, summarySchema, toSummary } from '../itineraries/itineraries.js';
import { destinationParam, destinationParameter } from './params.js';

/** An activity of the highlights answer: one whose `highlight` is always true. */
const highlightSchema = {
  ...activitySchema,
  properties: { ...activitySchema.properties, highlight: { type: 'boolean', const: true } },
};

/**
 * The read-only JSON API under /api/itineraries, in routing order. Any cache may keep its
 * answers: the plans are fixed while the process runs.
 */
export function apiOperations(itineraries: Itineraries): Operation[] {
  const itineraryOf = (ctx: Context): Itinerary => {
    const name = destinationParam(ctx);
    const entry = itineraries.find(name);
    if (!entry) throw new NotFound(`No itinerary for the destination ${JSON.stringify(name)}`);
    return entry.itinerary;
  };
  const highlightsOf = (itinerary: Itinerary) => itinerary.activities.filter((a) => a.highlight);

  return [
    {
      id: 'listItineraries',
      method: 'get',
      path: '/api/itineraries',
      summary: 'A summary of every itinerary',
      description:
        'One per destination, by destination name, written as it is made (no `Content-Length`).',
      responses: {
        200: {
          description: 'Every itinerary, in short',
          schema: { type: 'array', items: summarySchema },
        },
      },
      errors: [],
      // Grows with the destinations: written as it is sent.
      handler: (ctx) =>
        answerList(ctx, () => itineraries.all, itineraries.version, {
          shape: (entry) => toSummary(entry.itinerary),
          count: itineraries.all.length,
        }),
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
      handler: (ctx) => answerStable(ctx, itineraryOf(ctx)),
    },
    {
      id: 'itineraryHighlights',
      method: 'get',
      path: '/api/itineraries/:destination/highlights',
      summary: "The highlighted activities of a destination's itinerary",
      description: 'In the order of the plan; an empty array when none is a highlight.',
      parameters: [destinationParameter],
      responses: {
        200: { description: 'The highlights', schema: { type: 'array', items: highlightSchema } },
      },
      errors: [400, 404],
      handler: (ctx) => answerStable(ctx, highlightsOf(itineraryOf(ctx))),
    },
  ];
}
