import { Conformance } from 'service-kit/testing';
import { type AppOptions, createApp, JSON_PATHS, travelApi } from '../src/app.js';
import { readConfig } from '../src/config.js';
import { type Planned, planItineraries } from '../src/itineraries/itineraries.js';
import { loadDestinations } from '../src/itineraries/load.js';
import { seededRandom } from '../src/itineraries/random.js';

export { expectErrorBody } from 'service-kit/testing';

export const TEST_SEED = 'travel-service tests';
export const { records: seededDestinations, version: seedVersion } = await loadDestinations(
  readConfig({}).destinationsFile,
);
/** The itineraries of the seed file under a fixed seed: the same in every run. */
export const seededItineraries = planItineraries(seededDestinations, TEST_SEED, seedVersion);

export const conformance = new Conformance(
  travelApi(seededItineraries).document as never,
  JSON_PATHS,
);
/** supertest, with every API response checked against the OpenAPI document. */
export const request = conformance.request.bind(conformance);

/** A destination of the seeded itineraries that the tests count on. */
export function seededEntry(name: string): Planned {
  const entry = seededItineraries.find(name);
  if (!entry) throw new Error(`The seed file has no ${name}`);
  return entry;
}

/** The app on the seeded itineraries; its home page picks with a seeded random source too. */
export function seededApp(options: Partial<AppOptions> = {}) {
  return createApp({
    itineraries: seededItineraries,
    random: seededRandom(`${TEST_SEED} home`),
    ...options,
  });
}
