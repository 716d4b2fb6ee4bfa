// A peer of games-service: a Fastify stack answering GET /api/games/:id as Fastify's documentation
// and its plugins' READMEs show it (defaults unless said), for src/peers.ts:
//
//   Fastify's own pino logger  at games-service's level and destination (peer-shared.ts), its
//                    request lines on unless LOG_REQUESTS is `false` (then its LogController's
//                    disableRequestLogging); request ids from X-Request-Id (requestIdHeader) or a
//                    new UUID (genReqId), sent back as X-Request-Id by an onRequest hook
//   @fastify/helmet  helmet's defaults, on every route
//   @fastify/cors    its defaults: any origin
//   @fastify/compress  global, its defaults: br, gzip or deflate from 1,024 bytes
//   @fastify/etag    a weak ETag of the payload ({ weak: true }), 304 when If-None-Match has it
//   the route        a params schema (the id, an integer, coerced by Fastify's ajv) and, as
//                    Fastify's "Validation and Serialization" recommends for throughput, a
//                    response schema: fast-json-stringify writes the body
//
// Where it differs from games-service (packages/service-kit, src/app.ts there):
// - helmet's defaults send the headers of a document: ours sends five fixed headers on JSON
//   answers (CSP default-src 'none', CORP, Referrer-Policy, nosniff, X-Frame-Options).
// - @fastify/cors sends Access-Control-Allow-Origin: * on every answer, as ours does, but no
//   Access-Control-Expose-Headers (ours exposes X-Request-Id, ETag and the paging headers).
// - @fastify/compress sets Vary only on the answers it compresses: the route sets
//   `Vary: Accept-Encoding` itself, as ours sets it on every answer.
// - the ETag is W/"<base64 SHA-1>" where ours (and the etag package) write W/"<size>-<SHA-1>".
// - with request lines on, Fastify writes two per request (received, completed); ours one.
// - X-Request-Id: a given one is taken as it is (Fastify's docs warn of it); ours checks it.
// - a bad id is answered with Fastify's error body ({statusCode, code, error, message}); ours
//   `{error, status}` (a missing game gets ours, from the route).
// - none of ours' other layers: path normalization, the Host and query checks, the request-time
//   histogram for /metrics (prom-client).

import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import etag from '@fastify/etag';
import helmet from '@fastify/helmet';
import Fastify, { LogController } from 'fastify';
import { CACHE_CONTROL, LOG_LEVEL, loadGames, logDestination, logRequests } from './peer-shared.js';

const games = loadGames();

const text = { type: 'string' } as const;
/** games-service's game schema (its catalogue/game.ts), its fields in the order they are sent. */
const gameSchema = {
  type: 'object',
  required: [
    'id',
    'title',
    'releaseYear',
    'rating',
    'description',
    'shortDescription',
    'developer',
    'genre',
    'reviewCount',
  ],
  properties: {
    id: { type: 'integer' },
    title: text,
    releaseYear: { type: 'integer' },
    rating: { type: ['number', 'null'] },
    description: text,
    shortDescription: text,
    developer: text,
    genre: text,
    reviewCount: { type: 'integer' },
  },
} as const;

const app = Fastify({
  logger: { level: LOG_LEVEL, stream: logDestination() },
  logController: new LogController({ disableRequestLogging: !logRequests }),
  requestIdHeader: 'x-request-id',
  genReqId: () => randomUUID(),
});
await app.register(helmet);
await app.register(cors);
await app.register(compress);
await app.register(etag, { weak: true });
app.addHook('onRequest', (request, reply, done) => {
  reply.header('X-Request-Id', request.id);
  done();
});

app.get<{ Params: { id: number } }>(
  '/api/games/:id',
  {
    schema: {
      params: {
        type: 'object',
        required: ['id'],
        properties: { id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } },
      },
      response: { 200: gameSchema },
    },
  },
  async (request, reply) => {
    const game = games.get(request.params.id);
    if (!game) {
      return reply.code(404).send({ error: `No game with id ${request.params.id}`, status: 404 });
    }
    reply.header('Cache-Control', CACHE_CONTROL).header('Vary', 'Accept-Encoding');
    return game;
  },
);

const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ message: 'peer fastify listening', url: address }));
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
  app.server.closeAllConnections();
});
