import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createServiceApp,
  DEFAULT_CACHE_MAX_BYTES,
  describeApi,
  type ServiceApp,
  type ServiceAppOptions,
} from 'service-kit';
import type { Itineraries } from './itineraries/itineraries.js';
import type { Random } from './itineraries/random.js';
import { apiOperations } from './routes/api.js';
import { pageRoutes } from './routes/pages.js';
import { API_INFO, travelHealth } from './routes/service.js';
import { viewHelpers } from './view-helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Paths answered with JSON, errors included; every other path is a page. */
export const JSON_PATHS = ['/api', '/healthz', '/openapi.json'];

export interface AppOptions
  extends Pick<
    ServiceAppOptions,
    'logger' | 'logRequests' | 'cacheViews' | 'cacheMaxBytes' | 'metrics'
  > {
  itineraries: Itineraries;
  /** The random source of the home page's featured itinerary. */
  random?: Random;
  /** Origins allowed to call the JSON API from a browser; `*` for any. */
  corsOrigins?: readonly string[];
}

/** The JSON API: its operations in routing order and their OpenAPI document. */
export function travelApi(itineraries: Itineraries) {
  return describeApi(API_INFO, [travelHealth(itineraries.size), ...apiOperations(itineraries)]);
}

/** The Koa app of the service (no listen): the kit's middleware, the pages and the JSON API. */
export function createApp({
  itineraries,
  random = Math.random,
  corsOrigins = ['*'],
  cacheMaxBytes = DEFAULT_CACHE_MAX_BYTES,
  ...options
}: AppOptions): ServiceApp {
  const pages = pageRoutes(itineraries, random);
  return createServiceApp({
    ...options,
    service: 'travel-service',
    root,
    // Written by `npm run build` beside the compiled app; absent when running the sources.
    compiledViews: new URL('./views.js', import.meta.url),
    api: travelApi(itineraries),
    jsonPaths: JSON_PATHS,
    routers: [pages],
    errorView: 'error',
    viewHelpers,
    cors: { origins: corsOrigins },
    cacheMaxBytes,
  });
}
