import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';
import Koa, { type Context } from 'koa';
import compress from 'koa-compress';
import views from 'koa-views';
import { loadAssets } from './http/assets.js';
import { conditionalGet } from './http/conditional.js';
import { corsFor } from './http/cors.js';
import { type ErrorBody, errorHandler } from './http/errors.js';
import { mount } from './http/operations.js';
import { replayAnswers } from './http/replay.js';
import { requestId } from './http/request-id.js';
import { requestLog } from './http/request-log.js';
import { COMPRESS_THRESHOLD } from './http/respond.js';
import { securityHeaders } from './http/security-headers.js';
import type { Itineraries } from './itineraries/itineraries.js';
import type { Random } from './itineraries/random.js';
import { type Logger, silentLogger } from './log.js';
import { apiOperations, apiRouter } from './routes/api.js';
import { pageRoutes, renderView } from './routes/pages.js';
import { docs, healthOperation } from './routes/service.js';
import { viewHelpers } from './view-helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

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
}

/** Requests answered with JSON, errors included. */
const isApi = (ctx: Context) =>
  ctx.path.startsWith('/api/') || ['/api', '/healthz', '/openapi.json'].includes(ctx.path);

/** The OpenAPI document of every JSON route. */
export function apiDocument(itineraries: Itineraries) {
  return docs([healthOperation(itineraries.size), ...apiOperations(itineraries)]).document;
}

export function createApp({
  itineraries,
  logger = silentLogger,
  logRequests = false,
  random = Math.random,
  cacheViews = true,
  corsOrigins = ['*'],
}: AppOptions): Koa {
  const app = new Koa();
  const assets = loadAssets(join(root, 'public'));
  const health = healthOperation(itineraries.size);
  const api = apiOperations(itineraries);
  const routers = [
    mount(new Router(), [health]),
    apiRouter(api),
    docs([health, ...api]).router,
    pageRoutes(itineraries, random),
  ];

  app.use(requestId());
  if (logRequests) app.use(requestLog(logger));
  app.use(replayAnswers());
  app.use(securityHeaders());
  app.use(compress({ threshold: COMPRESS_THRESHOLD, deflate: false, zstd: false }));
  app.use(
    errorHandler({
      logger,
      isApi,
      renderPage: async (ctx, body: ErrorBody) => {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = await renderView(ctx, 'error', {
          title: body.status === 404 ? 'Not found' : 'Error',
          error: body,
        });
      },
    }),
  );
  app.use(conditionalGet());
  app.use(corsFor(isApi, corsOrigins));
  app.use(assets.middleware());
  const render = views(join(root, 'views'), {
    extension: 'pug',
    autoRender: false,
    options: { cache: cacheViews, basedir: join(root, 'views') },
  });
  // Only pages render templates; JSON routes skip the views machinery.
  app.use(async (ctx, next) => {
    if (isApi(ctx)) return next();
    ctx.state.asset = assets.url;
    ctx.state.path = ctx.path;
    ctx.state.h = viewHelpers;
    return render(ctx, next);
  });
  // One router holding every route: one place that knows every method of every path.
  const router = new Router();
  for (const part of routers) router.use(part.routes());
  app.use(router.routes()).use(router.allowedMethods());
  return app;
}
