import { type ApiInfo, type AppSettings, createServiceApp, describeApi } from 'service-kit';
import { format } from './format.js';
import type { Itineraries } from './itineraries/itineraries.js';
import type { Random } from './itineraries/random.js';
import { apiOperations } from './routes/api.js';
import { travelHealth } from './routes/health.js';
import { pageRoutes } from './routes/pages.js';

/** The API's paths, answered with JSON, errors included; beside the kit's own, every other path is a page. */
export const JSON_PATHS = ['/api'];

export interface AppOptions extends AppSettings {
  itineraries: Itineraries;
  /** The random source of the home page's featured itinerary. */
  random?: Random;
}

/** The API's title, version and description in its OpenAPI document. */
export const API_INFO: ApiInfo = {
  title: 'Trip Planner API',
  version: '1.0.0',
  description:
    'Read-only travel itineraries: one plan per destination, its activities with prices in US dollars, and the total. Lists are bare arrays; errors are `{"error", "status"}` objects.',
};

/** The JSON API: its operations in routing order, the probes, and their OpenAPI document. */
export function travelApi(itineraries: Itineraries) {
  return describeApi(API_INFO, apiOperations(itineraries), travelHealth(itineraries.size));
}

/** The Koa app of the service (no listen): the kit's middleware, the pages and the JSON API. */
export function createApp({ itineraries, random = Math.random, ...settings }: AppOptions) {
  const parts = {
    service: 'travel-service',
    api: travelApi(itineraries),
    jsonPaths: JSON_PATHS,
    routers: [pageRoutes(itineraries, random)],
    formatting: format,
    errorView: 'error.pug',
  };
  return createServiceApp(import.meta.url, parts, settings);
}
