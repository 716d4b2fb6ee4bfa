// A peer of games-service: an off-the-shelf Koa stack answering GET /api/games/:id as each
// middleware's README shows it (defaults unless said), for src/peers.ts. From the outside in:
//
//   koa-pino-logger  pino-http's request logging (a line per request when LOG_REQUESTS is not
//                    `false`), whose genReqId gives the request id, sent as X-Request-Id (the
//                    id generator of pino-http's README)
//   koa-helmet       helmet() with its defaults
//   @koa/cors        cors() with its defaults: any origin
//   koa-compress     compress() with its defaults: br, gzip or deflate from 1,024 bytes
//   koa-conditional-get + @koa/etag  a weak ETag of the body, 304 when If-None-Match has it
//                    (@koa/etag is koa-etag under its new name: koa-etag 5 prints that it is
//                    deprecated for it)
//   @koa/router      the route, which sets Cache-Control and gives the game as an object
//
// Where it differs from games-service (packages/service-kit, src/app.ts there):
// - helmet's defaults send the headers of a document: ours sends five fixed headers on JSON
//   answers (CSP default-src 'none', CORP, Referrer-Policy, nosniff, X-Frame-Options).
// - @koa/cors sends Access-Control-Allow-Origin: * on every answer, as ours does, but also
//   `Vary: Origin` (ours leaves it out when any origin is allowed: a shared cache would keep a
//   copy per origin), and no Access-Control-Expose-Headers (ours exposes X-Request-Id, ETag...).
// - the body is serialized by Koa as it is sent, and also by @koa/etag to hash it and by Koa's
//   `response.length` for koa-compress's threshold: three JSON.stringify per answer; ours one.
// - X-Request-Id: a given one is taken as it is; ours checks it (1-128 of [\w.:-]) or makes one.
// - none of ours' other layers: path normalization, the Host and query checks, the request-time
//   histogram for /metrics (prom-client), the JSON error body on every path, the id's schema check
//   (here: a whole number, or a 400).

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import cors from '@koa/cors';
import etag from '@koa/etag';
import Router from '@koa/router';
import Koa from 'koa';
import compress from 'koa-compress';
import conditional from 'koa-conditional-get';
import helmet from 'koa-helmet';
import logger from 'koa-pino-logger';
import { pino } from 'pino';
import { listen } from './captured.js';
import {
  CACHE_CONTROL,
  gameId,
  LOG_LEVEL,
  loadGames,
  logDestination,
  logRequests,
} from './peer-shared.js';

const games = loadGames();
const app = new Koa();

app.use(
  logger({
    logger: pino({ level: LOG_LEVEL }, logDestination()),
    autoLogging: logRequests,
    genReqId: (req, res) => {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && given ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
  }),
);
app.use(helmet());
app.use(cors());
app.use(compress());
app.use(conditional());
app.use(etag({ weak: true }));

const router = new Router();
router.get('/api/games/:id', (ctx) => {
  const id = gameId(ctx.params.id ?? '');
  const game = id === undefined ? undefined : games.get(id);
  if (!game) {
    // games-service's error body, which Koa's ctx.throw would give as text.
    ctx.status = id === undefined ? 400 : 404;
    ctx.body = { error: `No game with id ${ctx.params.id}`, status: ctx.status };
    return;
  }
  ctx.set('Cache-Control', CACHE_CONTROL);
  ctx.body = game;
});
app.use(router.routes());
app.use(router.allowedMethods());

listen(createServer(app.callback()), 'peer koa');
