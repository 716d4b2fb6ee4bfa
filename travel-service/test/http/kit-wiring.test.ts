import { expectKitWired } from 'service-kit/testing';
import { seededApp, seededItineraries } from '../helpers.js';

/** The largest itinerary answer, worth compressing. */
const largest = [...seededItineraries.all]
  .sort((a, b) => JSON.stringify(a.itinerary).length - JSON.stringify(b.itinerary).length)
  .at(-1)!;

describe('the kit', () => {
  it('is wired: request id, request log, metrics, compression, CORS for any origin to read', () =>
    expectKitWired({
      service: 'travel-service',
      app: seededApp,
      path: `/api/itineraries/${largest.slug}`,
      route: '/api/itineraries/:destination',
      cors: { origin: '*', methods: 'GET,HEAD' },
    }));
});
