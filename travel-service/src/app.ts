import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ApiInfo, createServiceApp, describeApi, type Logger } from 'service-kit';
import { format } from './format.js';
import type { Itineraries } from './itineraries/itineraries.js';
import type { Random } from './itineraries/random.js';
import { apiOperations } from './routes/api.js';
import { travelHealth } from './routes/health.js';
import { pageRoutes } from './routes/pages.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The API's paths, answered with JSON, errors included; beside the kit's own, every other path is a page. */
export const JSON_PATHS = ['/api'];

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
  /** Whether GET /metrics answers. */
  metrics?: boolean;
}

/** The API's title, version and description in its OpenAPI document. */
export const API_INFO: ApiInfo = {
  title: 'Trip Planner API',
  version: '1.0.0',
  description:
    'Read-only travel itineraries: one plan per destination, its activities with prices in US dollars, and the total. Lists are bare arrays; errors are `{"error", "status"}` objects.',
};

/** The JSON API: its operations in routing order and their OpenAPI document. */
export function travelApi(itineraries: Itineraries) {
  return describeApi(API_INFO, [...travelHealth(itineraries.size), ...apiOperations(itineraries)]);
}

/** The Koa app of the service (no listen): the kit's middleware, the pages and the JSON API. */
export function createApp({
  itineraries,
  random = Math.random,
  corsOrigins = ['*'],
  logger,
  logRequests,
  cacheViews,
  metrics,
}: AppOptions) {
  return createServiceApp({
    service: 'travel-service',
    root,
    // Written by `npm run build` beside the compiled app; absent when running the sources.
    compiledViews: new URL('./views.js', import.meta.url),
    api: travelApi(itineraries),
    jsonPaths: JSON_PATHS,
    routers: [pageRoutes(itineraries, random)],
    errorView: 'error',
    formatting: format,
    cors: { origins: corsOrigins },
    logger,
    logRequests,
    cacheViews,
    metrics,
  });
}
