import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Koa, { type Context } from 'koa';
import views from 'koa-views';
import { loadAssets } from './http/assets.js';
import { type ErrorBody, errorHandler } from './http/errors.js';
import { requestLog } from './http/request-log.js';
import { securityHeaders } from './http/security-headers.js';
import type { Itineraries } from './itineraries/itineraries.js';
import type { Random } from './itineraries/random.js';
import { type Logger, silentLogger } from './log.js';
import { apiRoutes } from './routes/api.js';
import { pageRoutes } from './routes/pages.js';
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
}

const isApi = (ctx: Context) => ctx.path === '/api' || ctx.path.startsWith('/api/');

export function createApp({
  itineraries,
  logger = silentLogger,
  logRequests = false,
  random = Math.random,
  cacheViews = true,
}: AppOptions): Koa {
  const app = new Koa();
  const assets = loadAssets(join(root, 'public'));
  const api = apiRoutes(itineraries);
  const pages = pageRoutes(itineraries, random);

  if (logRequests) app.use(requestLog(logger));
  app.use(securityHeaders());
  app.use(
    errorHandler({
      logger,
      isApi,
      renderPage: async (ctx, body: ErrorBody) => {
        ctx.set('Cache-Control', 'no-store');
        await ctx.render('error', {
          title: body.status === 404 ? 'Not found' : 'Error',
          error: body,
        });
      },
    }),
  );
  app.use(assets.middleware());
  app.use(
    views(join(root, 'views'), {
      extension: 'pug',
      options: { cache: cacheViews, basedir: join(root, 'views') },
    }),
  );
  app.use(async (ctx, next) => {
    ctx.state.asset = assets.url;
    ctx.state.path = ctx.path;
    ctx.state.h = viewHelpers;
    await next();
  });
  app.use(async (ctx, next) => {
    if (ctx.path !== '/healthz') return next();
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok', destinations: itineraries.size };
  });
  app.use(api.routes()).use(api.allowedMethods());
  app.use(pages.routes()).use(pages.allowedMethods());
  return app;
}
