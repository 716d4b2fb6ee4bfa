import Koa from 'koa';
import { errorHandler } from './http/errors.js';
import { requestLog } from './http/request-log.js';
import { securityHeaders } from './http/security-headers.js';
import { type Logger, silentLogger } from './log.js';
import { cdRoutes } from './routes/cds.js';
import type { CdStore } from './store/store.js';

export interface AppOptions {
  store: CdStore;
  logger?: Logger;
  /** When set, POST, PUT and DELETE need `Authorization: Bearer <apiToken>`. */
  apiToken?: string | undefined;
  /** Write one log line per request. */
  logRequests?: boolean;
  /** The clock of timestamps and of the latest valid release year. */
  now?: () => Date;
}

export function createApp({
  store,
  logger = silentLogger,
  apiToken,
  logRequests = false,
  now,
}: AppOptions): Koa {
  const app = new Koa();
  const cds = cdRoutes({ store, apiToken, now });

  if (logRequests) app.use(requestLog(logger));
  app.use(securityHeaders());
  app.use(errorHandler({ logger }));
  app.use(async (ctx, next) => {
    if (ctx.path !== '/healthz') return next();
    ctx.set('Cache-Control', 'no-store');
    try {
      await store.ping();
      ctx.body = { status: 'ok', store: store.kind };
    } catch (error) {
      logger.error('store does not answer', { store: store.kind, error: String(error) });
      ctx.status = 503;
      ctx.body = { status: 'unavailable', store: store.kind };
    }
  });
  app.use(cds.routes()).use(cds.allowedMethods());
  return app;
}
