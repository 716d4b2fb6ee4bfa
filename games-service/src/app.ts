import { type ApiInfo, type AppSettings, createServiceApp, describeApi } from 'service-kit';
import type { Catalogue } from './catalogue/catalogue.js';
import { format } from './format.js';
import { apiOperations, missingGenreRoute } from './routes/api.js';
import { gamesHealth } from './routes/health.js';
import { pageRoutes } from './routes/pages.js';

/** The API's paths, answered with JSON, errors included; beside the kit's own, every other path is a page. */
export const JSON_PATHS = ['/api'];

export interface AppOptions extends AppSettings {
  catalogue: Catalogue;
  /** The random source of the home page and /random. */
  random?: () => number;
}

/** The API's title, version and description in its OpenAPI document. */
const API_INFO: ApiInfo = {
  title: 'Game Shelf API',
  version: '1.0.0',
  description:
    'A read-only catalogue of video games that can be searched. Lists are bare arrays; errors are `{"error", "status"}` objects.',
};

/** The JSON API: its operations in routing order, the probes, and their OpenAPI document. */
export function gamesApi(catalogue: Catalogue) {
  return describeApi(API_INFO, apiOperations(catalogue), gamesHealth(catalogue));
}

/** The Koa app of the service (no listen): the kit's middleware, the pages and the JSON API. */
export function createApp({ catalogue, random = Math.random, ...settings }: AppOptions) {
  const parts = {
    service: 'games-service',
    api: gamesApi(catalogue),
    jsonPaths: JSON_PATHS,
    routers: [pageRoutes(catalogue, random)],
    apiRouters: [missingGenreRoute()],
    formatting: format,
    errorView: 'error.pug',
  };
  return createServiceApp(import.meta.url, parts, settings);
}
