import { fileURLToPath } from 'node:url';
import Koa from 'koa';
import type { Registry } from 'prom-client';
import type { Api } from './api.js';
import { HEALTH_PATHS } from './health.js';
import { type Logger, silentLogger } from './log.js';
import { METRICS_PATH, metricsRouter, processMetrics } from './metrics.js';
import { cors } from './middleware/cors.js';
import { errors, logLateErrors } from './middleware/errors.js';
import { finish } from './middleware/finish.js';
import { path } from './middleware/path.js';
import { requestRecord } from './middleware/request-record.js';
import { securityHeaders } from './middleware/security-headers.js';
import { readQueryInOnePass, wellFormed } from './middleware/well-formed.js';
import { DOCUMENT_PATH } from './operations.js';
import { type PagesOptions, pages } from './pages.js';
import { type Router, routing } from './routing.js';

/** What a service's app takes from its config and its tests, beside its data. */
export interface AppSettings {
  logger?: Logger;
  /** One log line per request. */
  logRequests?: boolean;
  cacheViews?: boolean;
  /** `*`, or the origins allowed to call the JSON API from a browser; none turns CORS off. */
  corsOrigins?: readonly string[];
  /** GET /metrics: a registry to serve, true (the default) for a new one, false for none. */
  metrics?: Registry | boolean;
}

/** What a service is made of, beside its settings. */
export interface ServiceParts extends Omit<PagesOptions, 'cacheViews'> {
  service: string;
  /** The JSON API: its operations, mounted in order, and their document (also shown at /docs). */
  api: Api;
  /** The service's path prefixes answered with JSON (`/api` covers `/api/...`), beside the kit's. */
  jsonPaths: readonly string[];
  /** The pages' routes. */
  routers?: readonly Router[];
  /** Undocumented routes of the JSON paths (a helpful 404, say), matched before the operations. */
  apiRouters?: readonly Router[];
  /** Content-Security-Policy directives, helmet's way; by default, pages that load only their own assets. */
  contentSecurityPolicy?: Record<string, string[]>;
  /**
   * The service's own errors (its domain's, its store's) as the HTTP errors they are answered
   * with, any other error as it is: the error middleware answers with what it returns.
   */
  toHttpError?: (error: unknown) => unknown;
}

export interface ServiceAppOptions extends ServiceParts, AppSettings {
  /** The service's folder: its `views/` (with `layout.pug`) and `public/` (assets). */
  root: string;
}

/** `metrics`: the registry behind GET /metrics, when metrics are on. */
export type ServiceApp = Koa & { metrics?: Registry };

/**
 * The Koa app of a service in any folder: the kit's middleware in the order a request meets it
 * (README.md). Services use createServiceApp; the kit's tests build their fixtures with this.
 */
export function serviceApp(options: ServiceAppOptions): ServiceApp {
  const { root, api, logger = silentLogger, metrics = true } = options;
  const registry = metrics === true ? processMetrics(options.service) : metrics || undefined;
  const page = pages(root, api.document, options);
  const security = securityHeaders(options.contentSecurityPolicy);
  const isJsonPath = jsonPathTest(options.jsonPaths);

  const app: ServiceApp = new Koa();
  app.metrics = registry;
  readQueryInOnePass(app);
  logLateErrors(app, logger);
  app.use(path(isJsonPath));
  app.use(requestRecord(options.logRequests ? logger : undefined, registry));
  app.use(errors(logger, security.secure, page.renderError, options.toHttpError));
  app.use(finish);
  // Before the well-formed check, so that a script can read its 400s.
  app.use(cors(api.operations, options.corsOrigins ?? ['*']));
  app.use(wellFormed);
  app.use(security.middleware);
  app.use(
    routing({
      isJsonPath,
      operations: api.operations,
      apiRouters: [...(registry ? [metricsRouter(registry)] : []), ...(options.apiRouters ?? [])],
      pageMiddleware: page.middleware,
      pageRouters: [...(options.routers ?? []), page.docs],
    }),
  );
  return app;
}

/**
 * The Koa app of a service laid out as the three are: views/ and public/ in the folder above
 * `appModule` (its app's `import.meta.url`), and the compiled views beside it.
 */
export function createServiceApp(
  appModule: string,
  parts: ServiceParts,
  settings: AppSettings = {},
): ServiceApp {
  return serviceApp({
    ...settings,
    ...parts,
    root: fileURLToPath(new URL('..', appModule)),
    compiledViews: new URL('./views.js', appModule),
  });
}

/** Whether a path is at or below a JSON path (`/api/games`, not `/apis`): as the edge's `api_path`. */
export function jsonPathTest(jsonPaths: readonly string[]) {
  const prefixes = [...jsonPaths, ...Object.values(HEALTH_PATHS), DOCUMENT_PATH, METRICS_PATH];
  return (path: string): boolean =>
    prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
