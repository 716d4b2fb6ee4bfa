import { fileURLToPath } from 'node:url';
import { type ApiInfo, createServiceApp, describeApi, type Logger } from 'service-kit';
import type { Catalogue } from './catalogue/catalogue.js';
import { format } from './format.js';
import { apiOperations, missingGenreRoute } from './routes/api.js';
import { gamesHealth } from './routes/health.js';
import { pageRoutes } from './routes/pages.js';

/** The service's folder: its views/ and public/. */
const root = fileURLToPath(new URL('..', import.meta.url));

/** The API's paths, answered with JSON, errors included; beside the kit's own, every other path is a page. */
export const JSON_PATHS = ['/api'];

export interface AppOptions {
  catalogue: Catalogue;
  logger?: Logger;
  /** Write one log line per request. */
  logRequests?: boolean;
  /** The random source of the home page and /random. */
  random?: () => number;
  /** Compile each template once (off while editing them). */
  cacheViews?: boolean;
  /** Origins allowed to call the JSON API from a browser; `*` for any. */
  corsOrigins?: readonly string[];
  /** Whether GET /metrics answers. */
  metrics?: boolean;
}

/** The API's title, version and description in its OpenAPI document. */
const API_INFO: ApiInfo = {
  title: 'Game Shelf API',
  version: '1.0.0',
  description:
    'A read-only catalogue of video games that can be searched. Lists are bare arrays; errors are `{"error", "status"}` objects.',
};

/** The JSON API: its operations in routing order and their OpenAPI document. */
export function gamesApi(catalogue: Catalogue) {
  return describeApi(API_INFO, [...gamesHealth(catalogue), ...apiOperations(catalogue)]);
}

/** The Koa app of the service (no listen): the kit's middleware, the pages and the JSON API. */
export function createApp({
  catalogue,
  random = Math.random,
  corsOrigins = ['*'],
  logger,
  logRequests,
  cacheViews,
  metrics,
}: AppOptions) {
  return createServiceApp({
    service: 'games-service',
    root,
    // Written by `npm run build` beside the compiled app; absent when running the sources.
    compiledViews: new URL('./views.js', import.meta.url),
    api: gamesApi(catalogue),
    jsonPaths: JSON_PATHS,
    routers: [missingGenreRoute(), pageRoutes(catalogue, random)],
    errorView: 'error',
    formatting: format,
    cors: { origins: corsOrigins },
    logger,
    logRequests,
    cacheViews,
    metrics,
  });
}
