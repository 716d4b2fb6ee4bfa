import { Conformance } from 'service-kit/testing';
import { type AppOptions, createApp, gamesApi, JSON_PATHS } from '../src/app.js';
import { Catalogue } from '../src/catalogue/catalogue.js';
import { loadGames } from '../src/catalogue/load.js';
import { readConfig } from '../src/config.js';

export { expectErrorBody, expectManyUnknownParameters } from 'service-kit/testing';

const seed = await loadGames(readConfig({}).gamesFile);
export const seededCatalogue = new Catalogue(seed.records, seed.version);

export const conformance = new Conformance(gamesApi(seededCatalogue).document as never, JSON_PATHS);
/** supertest, with every API response checked against the OpenAPI document. */
export const request = conformance.request.bind(conformance);

export function seededApp(options: Partial<AppOptions> = {}) {
  return createApp({ catalogue: seededCatalogue, ...options });
}
