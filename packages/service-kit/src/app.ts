import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants as zlib } from 'node:zlib';
import etag from '@koa/etag';
import Router from '@koa/router';
import Koa, { type Context, type Middleware } from 'koa';
import compress from 'koa-compress';
import conditionalGet from 'koa-conditional-get';
import type { Registry } from 'prom-client';
import { assets } from './assets.js';
import { type CorsOptions, corsFor } from './cors.js';
import { type Api, docsPage } from './docs.js';
import { BadRequest, errorHandler } from './errors.js';
import { type Logger, silentLogger } from './log.js';
import { createMetricsRegistry, metricsEndpoint } from './metrics.js';
import { requestObserver } from './observe.js';
import { mount, type Operation } from './operations.js';
import { negotiateEncoding, type ResponseCache, responseCache } from './response-cache.js';
import { securityHeaders, withHeaders } from './security-headers.js';
import { viewEngine } from './view-engine.js';
import { KIT_PUBLIC, kitHelpers, renderView } from './views.js';

/** Smaller bodies are not worth compressing. */
const COMPRESS_THRESHOLD = 1024;
/**
 * Brotli's defaults reserve a 4 MB window per stream, for every answer in flight; our answers
 * are far smaller, and a 256 KB window with the size as a hint compresses them as well.
 */
const BROTLI = (_type: string, size: number) => ({
  params: {
    [zlib.BROTLI_PARAM_QUALITY]: 5,
    [zlib.BROTLI_PARAM_LGWIN]: 18,
    ...(size > 0 && { [zlib.BROTLI_PARAM_SIZE_HINT]: size }),
  },
});
const NO_STORE = /(?:^|,)\s*no-store\b/i;

const compressed = compress({
  threshold: COMPRESS_THRESHOLD,
  br: BROTLI,
  deflate: false,
  zstd: false,
});
/**
 * koa-compress, told the one encoding negotiated for the request (the one the response cache
 * keys on): left to itself, it answers `identity;q=0` with `Content-Encoding: undefined`, which
 * Node refuses with a 500.
 */
const compression: Middleware = (ctx, next) => {
  ctx.request.headers['accept-encoding'] = negotiateEncoding(ctx.req);
  return compressed(ctx, next);
};

/** The Content-Security-Policy of sites whose pages load only their own assets. */
export const PAGES_POLICY = {
  defaultSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

export interface ServiceAppOptions {
  /** The service's folder: its `views/` (with `layout.pug`) and `public/` (assets). */
  root: string;
  /** The JSON API: its operations, mounted in order, and their document (also shown at /docs). */
  api: Api;
  /** Path prefixes answered with JSON, errors included (`/api` covers `/api/...`). */
  jsonPaths: readonly string[];
  /** Further routes (pages), mounted before the operations. */
  routers?: readonly Router[];
  /** The view of the error page, for requests outside jsonPaths; JSON errors when absent. */
  errorView?: string;
  /** Formatting helpers for the templates, as `h`. */
  viewHelpers?: Record<string, unknown>;
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
  /** The bound of the response cache in bytes; 0 turns it off (data that others may change). */
  cacheMaxBytes?: number;
  /** The service's name: in its metrics. */
  service: string;
  /**
   * GET /metrics: a Prometheus registry to serve (a service may add its own metrics to it),
   * true (the default) for a new one with the process metrics, false for none.
   */
  metrics?: Registry | boolean;
  /** Content-Security-Policy directives, helmet's way. */
  contentSecurityPolicy?: Record<string, string[]>;
}

export interface ServiceApp extends Koa {
  /** The response cache, when there is one (tests look at its size). */
  responseCache?: ResponseCache;
  /** The registry behind GET /metrics, when metrics are on. */
  metrics?: Registry;
}

/**
 * The Koa app of a service: request id, request log, security headers, the one error path,
 * CORS, conditional GET, the response cache, compression, validators, assets, views, and every
 * route in one router (so that 405 names every method of a path).
 */
export function createServiceApp(options: ServiceAppOptions): ServiceApp {
  const { root, api, jsonPaths, logger = silentLogger, cacheMaxBytes = 0 } = options;
  const app: ServiceApp = new Koa();
  const isJsonPath = underPaths(jsonPaths);
  const isJson = (ctx: Context) => isJsonPath(ctx.path);
  const files = assets([join(root, 'public'), KIT_PUBLIC]);
  const viewsDir = join(root, 'views');
  const renderFile = viewEngine(
    viewsDir,
    options.compiledViews && fileURLToPath(options.compiledViews),
    options.cacheViews ?? true,
  );
  // koa-views is loaded on the first page: a JSON request never needs it.
  let render: Promise<Middleware> | undefined;
  const loadViews = async () => {
    const { default: views } = await import('koa-views');
    return views(viewsDir, {
      extension: 'pug',
      autoRender: false,
      engineSource: { pug: renderFile },
    });
  };
  const helpers = { ...kitHelpers, ...options.viewHelpers };
  /** What a page's templates need: `ctx.render` (koa-views) and the locals every page has. */
  const preparePage = async (ctx: Context) => {
    ctx.state.asset = files.url;
    ctx.state.path = ctx.path;
    ctx.state.h = helpers;
    render ??= loadViews();
    await (await render)(ctx, async () => {});
  };
  const { errorView } = options;

  const metrics =
    options.metrics === false
      ? undefined
      : options.metrics === true || options.metrics === undefined
        ? createMetricsRegistry(options.service)
        : options.metrics;
  app.metrics = metrics;
  const observer = requestObserver({
    log: options.logRequests ? logger : undefined,
    metrics,
  });
  const security = securityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: options.contentSecurityPolicy ?? PAGES_POLICY,
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: false,
  });
  // A failure after the answer has started (a client gone in the middle of a streamed body)
  // reaches Koa's 'error' event, not the error middleware; Koa would print its stack to stderr.
  app.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') {
      logger.debug({ err: error }, 'the client left before the answer was sent');
    } else logger.error({ err: error }, 'the answer failed after it started');
  });
  app.use(observer.middleware);
  app.use(
    errorHandler({
      logger,
      isApi: isJson,
      headers: security,
      renderPage:
        errorView === undefined
          ? undefined
          : async (ctx, error) => {
              // The request may have failed before the middleware that prepares pages ran.
              await preparePage(ctx);
              return renderView(ctx, errorView, {
                title: error.status === 404 ? 'Not found' : 'Error',
                error,
              });
            },
    }),
  );
  app.use(wellFormedRequest);
  // The cache keeps what everything below decided (CORS and security headers, compression,
  // validators) and sends it again before Koa runs: see `callback` below.
  const cache = cacheMaxBytes > 0 ? responseCache(cacheMaxBytes) : undefined;
  if (cache) {
    app.responseCache = cache;
    app.use(cache.middleware);
  }
  app.use(corsFor(isJson, methodsOf(api.operations), options.cors ?? { origins: [] }));
  app.use(notModified);
  app.use(withHeaders(security));
  if (metrics) app.use(metricsEndpoint(metrics));
  app.use(compression);
  app.use(validatorUnlessNoStore);
  app.use(serializeJson);
  app.use(files.middleware);
  app.use(async (ctx, next) => {
    if (!isJson(ctx)) await preparePage(ctx);
    return next();
  });
  app.use(unknownMethodIsNotAllowed);
  const router = new Router();
  for (const part of [...(options.routers ?? []), docsPage(api.document, renderFile)]) {
    router.use(part.routes());
  }
  mount(router, api.operations);
  app.use(router.routes()).use(router.allowedMethods());

  if (cache) {
    // An answer the cache keeps is sent before Koa runs: a hit costs about what a bare
    // node:http server answering the same bytes costs.
    const koaCallback = app.callback.bind(app);
    app.callback = () => {
      const handle = koaCallback();
      return async (req, res) => {
        const answer = hostMissing(req as IncomingMessage)
          ? undefined
          : cache.lookup(req as IncomingMessage);
        if (!answer) return handle(req, res);
        try {
          observer.outsideKoa(req as IncomingMessage, (requestId) => ({
            status: cache.send(answer, req as IncomingMessage, res as ServerResponse, requestId),
            route: answer.route,
          }));
        } catch (error) {
          // Never expected; the app, with its one error path, answers instead when it still can.
          logger.error({ err: error, url: req.url }, 'sending a cached answer failed');
          if (!res.headersSent) return handle(req, res);
          res.destroy();
        }
      };
    };
  }
  return app;
}

/** The methods of the operations, as a preflight lists them (HEAD with GET). */
const methodsOf = (operations: readonly Operation[]) => {
  const methods = new Set(operations.map((operation) => operation.method.toUpperCase()));
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods];
};

/** An HTTP/1.1 request without Host, which Node lets through and no route may answer. */
const hostMissing = (req: IncomingMessage) => req.httpVersion === '1.1' && !req.headers.host;

/** Whether a path is one of the prefixes or below one (`/api` covers `/api/games`, not `/apis`). */
export const underPaths =
  (prefixes: readonly string[]) =>
  (path: string): boolean =>
    prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/**
 * What Node lets through but no route can answer: an HTTP/1.1 request without Host, and a query
 * whose percent-encoding is broken (Koa would silently keep the raw text).
 */
const wellFormedRequest: Middleware = (ctx, next) => {
  if (hostMissing(ctx.req)) {
    throw new BadRequest('An HTTP/1.1 request needs a Host header');
  }
  for (const part of ctx.querystring.split('&')) {
    try {
      decodeURIComponent(part.replaceAll('+', ' '));
    } catch {
      const field = part.split('=')[0] ?? part;
      throw new BadRequest(`The query parameter ${field} is not valid percent-encoding`, [
        { field, message: 'is not valid percent-encoding' },
      ]);
    }
  }
  return next();
};

/**
 * A method no route has (PROPFIND, SEARCH, ...): 405 with Allow on a path that exists, 404 on one
 * that does not (@koa/router answers 501 to both).
 */
const unknownMethodIsNotAllowed: Middleware = async (ctx, next) => {
  await next();
  if (ctx.status === 501 && ctx.body == null) ctx.status = ctx.response.get('Allow') ? 405 : 404;
};

const conditional = conditionalGet();

/** koa-conditional-get's 304, decided above compression: no body, hence no Content-Encoding. */
const notModified: Middleware = async (ctx, next) => {
  await conditional(ctx, next);
  if (ctx.status === 304) ctx.remove('Content-Encoding');
};

const weakEtag = etag({ weak: true });
const nothingBelow = async () => {};

/**
 * A weak ETag for every answer but one that must not be stored (a random page, a health check),
 * which has nothing to revalidate.
 */
const validatorUnlessNoStore: Middleware = async (ctx, next) => {
  await next();
  if (!NO_STORE.test(ctx.response.get('Cache-Control'))) return weakEtag(ctx, nothingBelow);
  // `If-None-Match: *` matches any answer (koa-conditional-get would send 304): not this one.
  delete ctx.request.headers['if-none-match'];
  delete ctx.request.headers['if-modified-since'];
};

/** JSON is serialized once, here, so that the validator and compression see the bytes sent. */
const serializeJson: Middleware = async (ctx, next) => {
  await next();
  const { body } = ctx;
  if (
    body &&
    typeof body === 'object' &&
    !Buffer.isBuffer(body) &&
    typeof (body as { pipe?: unknown }).pipe !== 'function'
  ) {
    ctx.body = JSON.stringify(body);
  }
};
