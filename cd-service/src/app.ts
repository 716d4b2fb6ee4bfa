import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';
import Koa, { type Context } from 'koa';
import compress from 'koa-compress';
import views from 'koa-views';
import { loadAssets } from './http/assets.js';
import { conditionalGet } from './http/conditional.js';
import { corsFor } from './http/cors.js';
import { errorHandler } from './http/errors.js';
import { mount, type Operation } from './http/operations.js';
import { replayAnswers } from './http/replay.js';
import { requestId } from './http/request-id.js';
import { requestLog } from './http/request-log.js';
import { COMPRESS_THRESHOLD } from './http/respond.js';
import { securityHeaders } from './http/security-headers.js';
import { type Logger, silentLogger } from './log.js';
import { cdOperations, cdRouter } from './routes/cds.js';
import { docs, healthOperation } from './routes/service.js';
import type { CdStore } from './store/store.js';
import { viewHelpers } from './view-helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface AppOptions {
  store: CdStore;
  logger?: Logger;
  /** When set, POST, PUT and DELETE need `Authorization: Bearer <apiToken>`. */
  apiToken?: string | undefined;
  /** Write one log line per request. */
  logRequests?: boolean;
  /** The clock of timestamps and of the latest valid release year. */
  now?: () => Date;
  /** Origins allowed to call the JSON API from a browser; `*` for any; none (the default) turns CORS off. */
  corsOrigins?: readonly string[];
}

/** The JSON API's requests (every answer is JSON, but /docs and the assets). */
const isApi = (ctx: Context) =>
  ctx.path === '/cds' ||
  ctx.path.startsWith('/cds/') ||
  ['/healthz', '/openapi.json'].includes(ctx.path);

/** Every JSON operation but the document's own, in routing order. */
function apiOperations({ store, logger = silentLogger, apiToken, now }: AppOptions): {
  health: Operation;
  cds: Operation[];
} {
  return { health: healthOperation(store, logger), cds: cdOperations({ store, apiToken, now }) };
}

/** Stands for the store when only the document is wanted: none of its handlers runs. */
const documentOnly = new Proxy({} as CdStore, {
  get() {
    throw new Error('apiDocument builds the document only; it has no store');
  },
});

/** The OpenAPI document of every JSON route, with the latest release year of `now`. */
export function apiDocument(now?: () => Date) {
  const { health, cds } = apiOperations({ store: documentOnly, now });
  return docs([health, ...cds]).document;
}

export function createApp(options: AppOptions): Koa {
  const { logger = silentLogger, logRequests = false, corsOrigins = [] } = options;
  const app = new Koa();
  const assets = loadAssets(join(root, 'public'));
  const { health, cds } = apiOperations(options);
  const routers = [mount(new Router(), [health]), cdRouter(cds), docs([health, ...cds]).router];

  app.use(requestId());
  if (logRequests) app.use(requestLog(logger));
  // Replaying answers is exact only when this process sees every write: true of the SQLite
  // file (one service owns it), not of a MongoDB that other replicas may write to.
  if (options.store.kind === 'sqlite') app.use(replayAnswers());
  app.use(securityHeaders());
  app.use(compress({ threshold: COMPRESS_THRESHOLD, deflate: false, zstd: false }));
  app.use(errorHandler({ logger }));
  app.use(conditionalGet());
  app.use(corsFor(isApi, corsOrigins));
  app.use(assets.middleware());
  const render = views(join(root, 'views'), {
    extension: 'pug',
    autoRender: false,
    options: { cache: true, basedir: join(root, 'views') },
  });
  // Only the API reference renders a template; JSON routes skip the views machinery.
  app.use(async (ctx, next) => {
    if (ctx.path !== '/docs') return next();
    ctx.state.asset = assets.url;
    ctx.state.path = ctx.path;
    ctx.state.h = viewHelpers;
    return render(ctx, next);
  });
  for (const router of routers) app.use(router.routes()).use(router.allowedMethods());
  return app;
}
