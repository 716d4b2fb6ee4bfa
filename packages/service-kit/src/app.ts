import { Stream } from 'node:stream';
import { fileURLToPath } from 'node:url';
import Koa, { type Context, type Middleware } from 'koa';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { compress } from './compression.js';
import { conditionalGet } from './conditional-get.js';
import { corsFor } from './cors.js';
import { errorAnswers } from './error-handler.js';
import { HEALTH_PATHS } from './health.js';
import { type Logger, silentLogger } from './log.js';
import { type Api, DOCUMENT_PATH } from './operations.js';
import { pages } from './pages.js';
import { METRICS_PATH, metricsRouter, requestRecords } from './request-record.js';
import { normalizePath, type Router, routing } from './routing.js';
import { securityHeaders } from './security-headers.js';
import { checkWellFormed, readQueryInOnePass } from './well-formed.js';

export interface ServiceAppOptions {
  service: string;
  /** The service's folder: its `views/` (with `layout.pug`) and `public/` (assets). */
  root: string;
  /** The JSON API: its operations, mounted in order, and their document (also shown at /docs). */
  api: Api;
  /** The service's path prefixes answered with JSON (`/api` covers `/api/...`), beside the kit's. */
  jsonPaths: readonly string[];
  /** The pages' routes. */
  routers?: readonly Router[];
  /** Undocumented routes of the JSON paths (a helpful 404, say), matched before the operations. */
  apiRouters?: readonly Router[];
  /** The error page's view (`error.pug`), for requests outside jsonPaths; JSON errors without it. */
  errorView?: string;
  /** The templates' `format`, beside the kit's helpers. */
  formatting?: Record<string, unknown>;
  cacheViews?: boolean;
  /** The module `compile-views` wrote at build time; without it, Pug compiles the templates. */
  compiledViews?: URL;
  logger?: Logger;
  logRequests?: boolean;
  /** `*`, or the origins allowed to call the JSON API from a browser; none by default. */
  cors?: { origins: readonly string[] };
  /** GET /metrics: a registry to serve, true (the default) for a new one, false for none. */
  metrics?: Registry | boolean;
  /** Content-Security-Policy directives, helmet's way; by default, pages that load only their own assets. */
  contentSecurityPolicy?: Record<string, string[]>;
}

/** `metrics`: the registry behind GET /metrics, when metrics are on. */
export type ServiceApp = Koa & { metrics?: Registry };

/** The Koa app of a service: its layers in the order a request meets them (see README.md). */
export function createServiceApp(options: ServiceAppOptions): ServiceApp {
  const { root, api, logger = silentLogger } = options;
  const app: ServiceApp = new Koa();
  readQueryInOnePass(app);
  const isJsonPath = jsonPathTest(options.jsonPaths);
  const isJson = (ctx: Context) => isJsonPath(ctx.path);
  const page = pages(root, api.document, options);
  let { metrics = true } = options;
  if (metrics === true) {
    metrics = new Registry();
    metrics.setDefaultLabels({ service: options.service });
    collectDefaultMetrics({ register: metrics }); // the process's and its event loop's
  }
  const registry = metrics || undefined;
  app.metrics = registry;
  const security = securityHeaders(isJson, options.contentSecurityPolicy);

  // A failure after the answer has started (a client gone in the middle of a streamed body)
  // reaches Koa's 'error' event, not the error middleware; Koa would print its stack to stderr.
  app.on('error', (error: NodeJS.ErrnoException) => {
    if (CLIENT_GONE.has(error.code ?? '')) {
      logger.debug({ err: error }, 'the client left before the answer was sent');
    } else logger.error({ err: error }, 'the answer failed after it started');
  });

  const records = requestRecords(options.logRequests ? logger : undefined, registry);
  const errors = errorAnswers(logger, isJson, security, page.renderError);
  const cors = corsFor(isJson, api.operations, options.cors?.origins ?? []);
  // Two layers of plain steps (see README.md). Around all the rest: the path's normal form, the
  // request's record, then the answer's last steps or the error's answer.
  app.use(async (ctx, next) => {
    normalizePath(ctx);
    const started = records.start(ctx);
    try {
      // Said first, so that an error's answer says it too, as every other does.
      ctx.vary('Accept-Encoding');
      await next();
      // Headers a route already sent take no tag, encoding nor error answer: Koa ends it as it is.
      if (ctx.res.headersSent) return;
      if (ctx.status >= 400 && ctx.body == null) await errors.fellThrough(ctx);
      else {
        // An object is serialized once, here: its tag and its encoding see what is sent.
        const { body } = ctx;
        if (body && typeof body === 'object' && !Buffer.isBuffer(body) && !(body instanceof Stream))
          ctx.body = JSON.stringify(body);
        conditionalGet(ctx);
        compress(ctx);
      }
    } catch (error) {
      if (!ctx.res.headersSent) await errors.thrown(ctx, error);
      else {
        // Too late for an error's answer: the client sees it cut, not an answer that never ends.
        ctx.app.emit('error', error, ctx);
        ctx.res.destroy();
      }
    } finally {
      records.finish(ctx, started);
    }
  });
  const pageRouters = [...(options.routers ?? []), page.docs];
  const apiRouters = [...(options.apiRouters ?? [])];
  if (registry) apiRouters.unshift(metricsRouter(registry));
  const routes = routing(isJsonPath, api.operations, apiRouters, pageRouters);
  const answerPage: Middleware = (ctx, next) => {
    ctx.state.path = ctx.path; // the templates' `path`
    return page.assets(ctx, () => page.views(ctx, () => routes.pages(ctx, next)));
  };
  // Then CORS (before the well-formed check, so that a script can read its 400s; it answers a
  // preflight itself), the well-formed check, the security headers, and what the request's kind
  // of path needs, that only.
  app.use((ctx, next) => {
    if (cors(ctx)) return;
    checkWellFormed(ctx);
    security(ctx);
    return isJsonPath(ctx.path) ? routes.api(ctx, next) : answerPage(ctx, next);
  });
  return app;
}

/** What a service's app takes from its config and its tests, beside its data. */
export type AppSettings = Pick<ServiceAppOptions, 'logger' | 'logRequests' | 'cacheViews'> & {
  /** `*` (the default) or the origins allowed. */
  corsOrigins?: readonly string[];
  metrics?: boolean;
};

/**
 * createServiceApp for a service laid out as games and travel are: views/ and public/ in the
 * folder above `appModule` (its app's `import.meta.url`), compiled views beside it, the `error`
 * view, and CORS for any origin unless `corsOrigins` says otherwise.
 */
export function createPagesApp(
  appModule: string,
  parts: Pick<
    ServiceAppOptions,
    'service' | 'api' | 'jsonPaths' | 'routers' | 'apiRouters' | 'formatting'
  >,
  { corsOrigins = ['*'], ...settings }: AppSettings,
): ServiceApp {
  return createServiceApp({
    ...settings,
    ...parts,
    root: fileURLToPath(new URL('..', appModule)),
    compiledViews: new URL('./views.js', appModule),
    errorView: 'error.pug',
    cors: { origins: corsOrigins },
  });
}

/** Errors of an answer whose client went away in the middle of it (a probe that timed out too). */
const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE']);

/** Whether a path is at or below a JSON path (`/api/games`, not `/apis`): as the edge's `api_path`. */
export function jsonPathTest(jsonPaths: readonly string[]) {
  const prefixes = [...jsonPaths, ...Object.values(HEALTH_PATHS), DOCUMENT_PATH, METRICS_PATH];
  return (path: string): boolean =>
    prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
