import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Koa, { type Context, type Middleware } from 'koa';
import type { Registry } from 'prom-client';
import { assets } from './assets.js';
import { compression } from './compression.js';
import { conditionalGet } from './conditional-get.js';
import { type CorsOptions, corsFor } from './cors.js';
import { type Api, DOCUMENT_PATH, docsPage } from './docs.js';
import { errorHandler } from './error-handler.js';
import { HEALTH_PATHS } from './health.js';
import { serializeJson } from './json.js';
import { type Logger, silentLogger } from './log.js';
import { createMetricsRegistry, METRICS_PATH, metricsEndpoint } from './metrics.js';
import { KIT_PUBLIC, pages } from './pages.js';
import { normalizePath, type Router } from './paths.js';
import { recordRequests } from './request-record.js';
import { routing } from './routing.js';
import { securityHeaders, withHeaders } from './security-headers.js';
import { wellFormedRequest } from './well-formed.js';

export interface ServiceAppOptions {
  /** The service's name: in its metrics. */
  service: string;
  /** The service's folder: its `views/` (with `layout.pug`) and `public/` (assets). */
  root: string;
  /** The JSON API: its operations, mounted in order, and their document (also shown at /docs). */
  api: Api;
  /**
   * The service's own path prefixes answered with JSON, errors included (`/api` covers
   * `/api/...`); the kit's JSON routes (the probes, /openapi.json) are JSON without them.
   */
  jsonPaths: readonly string[];
  /** The pages' routes (outside jsonPaths). */
  routers?: readonly Router[];
  /** Undocumented routes of the JSON paths (a helpful 404, say), matched before the operations. */
  apiRouters?: readonly Router[];
  /** The file of the error page's view (`error.pug`), for requests outside jsonPaths; JSON errors when absent. */
  errorView?: string;
  /** Formatting helpers for the templates, beside the kit's, as `format`. */
  formatting?: Record<string, unknown>;
  /** Compile each template once (off while editing them). */
  cacheViews?: boolean;
  /**
   * The module of compiled templates written by `compile-views` at build time (beside the
   * compiled app: `new URL('./views.js', import.meta.url)`); without it, Pug compiles them.
   */
  compiledViews?: URL;
  logger?: Logger;
  /** Write one log line per request. */
  logRequests?: boolean;
  cors?: CorsOptions;
  /**
   * GET /metrics: a Prometheus registry to serve (a service may add its own metrics to it),
   * true (the default) for a new one with the process metrics, false for none.
   */
  metrics?: Registry | boolean;
  /** Content-Security-Policy directives, helmet's way; by default, pages that load only their own assets. */
  contentSecurityPolicy?: Record<string, string[]>;
}

export interface ServiceApp extends Koa {
  /** The registry behind GET /metrics, when metrics are on. */
  metrics?: Registry;
}

/**
 * The Koa app of a service: each layer is one concern, in the order a request meets them.
 * Every answer is computed per request; caching whole answers is the job of a proxy in front.
 */
export function createServiceApp(options: ServiceAppOptions): ServiceApp {
  const { root, api, logger = silentLogger } = options;
  const app: ServiceApp = new Koa();
  const isJsonPath = jsonPathTest(options.jsonPaths);
  const isJson = (ctx: Context) => isJsonPath(ctx.path);
  const files = assets([join(root, 'public'), KIT_PUBLIC]);
  const page = pages({
    cacheViews: options.cacheViews ?? true,
    viewsDir: join(root, 'views'),
    compiledViews: options.compiledViews && fileURLToPath(options.compiledViews),
    assetUrl: files.url,
    formatting: options.formatting,
    errorView: options.errorView,
  });
  const metrics = metricsRegistry(options);
  app.metrics = metrics;
  const security = securityHeaders(isJson, options.contentSecurityPolicy);

  // A failure after the answer has started (a client gone in the middle of a streamed body)
  // reaches Koa's 'error' event, not the error middleware; Koa would print its stack to stderr.
  app.on('error', (error: NodeJS.ErrnoException) => {
    if (CLIENT_GONE.has(error.code ?? '')) {
      logger.debug({ err: error }, 'the client left before the answer was sent');
    } else logger.error({ err: error }, 'the answer failed after it started');
  });

  // What every request meets, in this order (see README.md).
  // Before anything reads the path: every layer sees `%74op-rated` as `top-rated`.
  app.use(normalizePath);
  app.use(recordRequests({ log: options.logRequests ? logger : undefined, metrics }));
  app.use(errorHandler({ logger, isApi: isJson, headers: security, renderPage: page.renderError }));
  app.use(wellFormedRequest);
  app.use(corsFor(isJson, api.operations, options.cors ?? { origins: [] }));
  app.use(withHeaders(security));
  app.use(compression);
  app.use(conditionalGet);

  // Then a request meets what its kind of path needs, and that only.
  const routes = routing(isJsonPath, {
    operations: api.operations,
    apiRouters: options.apiRouters ?? [],
    pages: [...(options.routers ?? []), docsPage(api.document, page.renderKitView)],
  });
  const serveMetrics = metrics && metricsEndpoint(metrics);
  const answerApi: Middleware = async (ctx, next) => {
    if (serveMetrics && ctx.path === METRICS_PATH) {
      return serveMetrics(ctx, () => routes.api(ctx, next));
    }
    await routes.api(ctx, next);
    serializeJson(ctx);
  };
  const answerPage: Middleware = (ctx, next) => {
    // The templates' `path`.
    ctx.state.path = ctx.path;
    return files.middleware(ctx, () => page.middleware(ctx, () => routes.pages(ctx, next)));
  };
  app.use((ctx, next) => (isJsonPath(ctx.path) ? answerApi(ctx, next) : answerPage(ctx, next)));
  return app;
}

/** What a service's app takes from its config and its tests, beside its data. */
export type AppSettings = Pick<ServiceAppOptions, 'logger' | 'logRequests' | 'cacheViews'> & {
  /** Origins allowed to call the JSON API from a browser; `*` (the default) for any. */
  corsOrigins?: readonly string[];
  /** Whether GET /metrics answers. */
  metrics?: boolean;
};

/**
 * createServiceApp for a service of pages beside a JSON API, laid out as the kit expects: its
 * folder (views/, public/) is the one above `appModule` (its app's `import.meta.url`), its
 * templates are compiled by `npm run build` beside that module (absent when running the
 * sources), its error page is the `error` view, and its API answers browsers of any origin
 * unless `corsOrigins` says otherwise.
 */
export function createPagesApp(
  appModule: string,
  parts: Pick<
    ServiceAppOptions,
    'service' | 'api' | 'jsonPaths' | 'routers' | 'apiRouters' | 'formatting'
  >,
  { corsOrigins = ['*'], logger, logRequests, cacheViews, metrics }: AppSettings,
): ServiceApp {
  return createServiceApp({
    ...parts,
    root: fileURLToPath(new URL('..', appModule)),
    compiledViews: new URL('./views.js', appModule),
    errorView: 'error.pug',
    cors: { origins: corsOrigins },
    logger,
    logRequests,
    cacheViews,
    metrics,
  });
}

/** Errors of an answer whose client went away in the middle of it (a probe that timed out too). */
const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE']);

/** The registry of GET /metrics, if any (see ServiceAppOptions.metrics). */
function metricsRegistry({ metrics = true, service }: ServiceAppOptions): Registry | undefined {
  if (metrics === false) return undefined;
  return metrics === true ? createMetricsRegistry(service) : metrics;
}

/** Whether a path is one of the prefixes or below one (`/api` covers `/api/games`, not `/apis`). */
const underPaths =
  (prefixes: readonly string[]) =>
  (path: string): boolean =>
    prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/**
 * Whether a path is answered with JSON (errors included): the service's prefixes, and the kit's
 * own routes that are not pages. The edge's `api_path` says the same (a bench test checks it).
 */
export const jsonPathTest = (servicePrefixes: readonly string[]) =>
  underPaths([...servicePrefixes, ...Object.values(HEALTH_PATHS), DOCUMENT_PATH, METRICS_PATH]);
