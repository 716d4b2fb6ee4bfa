import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Api, createServiceApp, describeApi, type Logger, type ServiceApp } from 'service-kit';
import type { Itineraries } from './itineraries/itineraries.js';
import type { Random } from './itineraries/random.js';
import { apiOperations } from './routes/api.js';
import { pageRoutes } from './routes/pages.js';
import { API_INFO, healthOperation } from './routes/service.js';
import { viewHelpers } from './view-helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Paths answered with JSON, errors included; every other path is a page. */
export const JSON_PATHS = ['/api', '/healthz', '/openapi.json'];

export interface AppOptions {
  itineraries: Itineraries;
  logger?: Logger;
  /** Write one log line per request. */
  logRequests?: boolean;
  /** The random source of the home page's featured itinerary. */
  random?: Random;
  /** Compile each template once (off while editing them). */
  cacheViews?: boolean;
  /** Origins allowed to call the JSON API from a browser; `*` for any. */
  corsOrigins?: readonly string[];
  /** The bound of the response cache, in bytes; 0 turns it off. */
  cacheMaxBytes?: number;
}

/** The JSON API: its operations in routing order and their OpenAPI document. */
export function travelApi(itineraries: Itineraries): Api {
  return describeApi(API_INFO, [healthOperation(itineraries.size), ...apiOperations(itineraries)]);
}

export function createApp({
  itineraries,
  random = Math.random,
  corsOrigins = ['*'],
  cacheMaxBytes = 32 * 1024 * 1024,
  ...options
}: AppOptions): ServiceApp {
  return createServiceApp({
    root,
    api: travelApi(itineraries),
    jsonPaths: JSON_PATHS,
    routers: [pageRoutes(itineraries, random)],
    errorView: 'error',
    viewHelpers,
    cors: { origins: corsOrigins },
    cacheMaxBytes,
    ...options,
  });
}
