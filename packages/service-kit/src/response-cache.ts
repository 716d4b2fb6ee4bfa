// Hand-written: no maintained Koa cache keys on the negotiated encoding, honours Vary, answers
// before the framework runs, and empties on writes.
import type {
  ClientRequest,
  IncomingMessage,
  OutgoingHttpHeaders,
  ServerResponse,
} from 'node:http';
import { Readable } from 'node:stream';
import fresh from 'fresh';
import type { Context, Middleware } from 'koa';
import { LRUCache } from 'lru-cache';
import Negotiator from 'negotiator';
import { routeOf } from './metrics.js';

/** The encodings a cached answer can have, best first (compression below the cache makes them). */
export const ENCODINGS = ['br', 'gzip', 'identity'] as const;
export type Encoding = (typeof ENCODINGS)[number];

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Directives that forbid a shared cache to store an answer (RFC 9111). */
const NOT_STORABLE = /(?:^|,)\s*(?:no-store|private)\b/i;
/** Rough cost of an entry beyond its body, so that many tiny entries still count. */
const ENTRY_OVERHEAD = 256;
/** Response headers that belong to one request or connection, never kept with the answer. */
const OWN_HEADERS = new Set([
  'x-request-id',
  'connection',
  'keep-alive',
  'date',
  'content-length',
  'transfer-encoding',
]);
/** What a 304 leaves out: it has no body (RFC 9110 15.4.5). */
const BODY_HEADERS = new Set(['content-type', 'content-encoding']);

/** A kept answer: the bytes sent, the headers that came with them and what they depend on. */
export interface CachedAnswer {
  readonly headers: OutgoingHttpHeaders;
  readonly body: Buffer;
  /** The route template that made it, for the request log and metrics. */
  readonly route: string;
  /** The request headers its Vary names (but Accept-Encoding, in the key), as they were. */
  readonly varies: readonly (readonly [string, string | undefined])[];
  /** Its validators, lower-cased as `fresh` reads them. */
  readonly validators: { etag?: string; 'last-modified'?: string };
}

export interface ResponseCache {
  /**
   * Koa middleware: keeps the storable answers to GETs Koa computes (the kept ones are sent by
   * `lookup` and `send`, before Koa), and empties the cache on every write.
   */
  middleware: Middleware;
  /** The kept answer that fits this request, if any: same URL, encoding and varying headers. */
  lookup(req: IncomingMessage): CachedAnswer | undefined;
  /** Sends a kept answer, with the request's id: 304 when its validators match, else 200. */
  send(answer: CachedAnswer, req: IncomingMessage, res: ServerResponse, requestId: string): number;
  /** What the kept answers weigh, in bytes (bodies, headers and a fixed overhead each). */
  readonly bytes: number;
  readonly entries: number;
}

/**
 * The one response cache of a service. A GET answered 200 whose Cache-Control allows a shared
 * cache to store it is kept, as the bytes sent, under its path with query and the encoding
 * negotiated from ENCODINGS (never a raw header value); the next GETs that match it (same key,
 * same values of the headers its Vary names) are answered from memory before Koa runs, with
 * their own request id, and 304 when their validators match. The total is bounded by
 * `maxBytes`, least recently used first out. Any write (an unsafe method that was not a client
 * error) empties it, and an answer computed while a write finished is not kept: exact for a
 * process that sees every write to its data.
 */
export function responseCache(maxBytes: number): ResponseCache {
  const cache = new LRUCache<string, CachedAnswer>({
    maxSize: maxBytes,
    maxEntrySize: Math.max(1, Math.floor(maxBytes / 4)),
    // The key (its URL, up to Node's header limit) weighs too: long URLs cannot slip past the bound.
    sizeCalculation: (answer, key) => key.length + answerSize(answer),
  });
  let writes = 0;

  const middleware: Middleware = async (ctx, next) => {
    if (ctx.method !== 'GET') {
      if (SAFE_METHODS.has(ctx.method)) return next();
      let status: unknown;
      try {
        await next();
        status = ctx.status;
      } catch (error) {
        // Thrown: the error path above decides the status, from the error's own.
        status = (error as { status?: unknown }).status;
        throw error;
      } finally {
        // Anything but a client mistake may have written (a failure, even after its write).
        if (!(typeof status === 'number' && status >= 400 && status < 500)) {
          writes++;
          cache.clear();
        }
      }
      return;
    }
    const encoding = negotiateEncoding(ctx.req);
    const writesBefore = writes;
    await next();
    const varies = storable(ctx);
    if (!varies) return;
    const body = await toBuffer(ctx.body);
    ctx.body = body;
    if (writes !== writesBefore) return;
    const headers: OutgoingHttpHeaders = {};
    for (const name of rawHeaderNames(ctx.res)) {
      if (!OWN_HEADERS.has(name.toLowerCase())) headers[name] = ctx.res.getHeader(name);
    }
    const etag = ctx.response.get('ETag');
    const lastModified = ctx.response.get('Last-Modified');
    cache.set(keyOf(ctx.req.url, encoding), {
      headers,
      body,
      route: routeOf(ctx),
      varies: varies.map((name) => [name, headerValue(ctx.req, name)] as const),
      validators: {
        ...(etag && { etag }),
        ...(lastModified && { 'last-modified': lastModified }),
      },
    });
  };

  return {
    middleware,
    lookup(req) {
      if (req.method !== 'GET') return undefined;
      const answer = cache.get(keyOf(req.url, negotiateEncoding(req)));
      return answer?.varies.every(([name, value]) => headerValue(req, name) === value)
        ? answer
        : undefined;
    },
    send(answer, req, res, requestId) {
      if (fresh(req.headers, answer.validators)) {
        const headers: OutgoingHttpHeaders = { 'X-Request-Id': requestId };
        for (const [name, value] of Object.entries(answer.headers)) {
          if (!BODY_HEADERS.has(name.toLowerCase())) headers[name] = value;
        }
        res.writeHead(304, headers);
        res.end();
        return 304;
      }
      res.writeHead(200, {
        'X-Request-Id': requestId,
        ...answer.headers,
        'Content-Length': answer.body.length,
      });
      res.end(answer.body);
      return 200;
    },
    get bytes() {
      return cache.calculatedSize;
    },
    get entries() {
      return cache.size;
    },
  };
}

/** Node has it on every outgoing message; @types/node 20 declares it on ClientRequest only. */
const rawHeaderNames = (res: ServerResponse): string[] =>
  (res as unknown as ClientRequest).getRawHeaderNames();

const keyOf = (url: string | undefined, encoding: Encoding) => `${encoding} ${url}`;

const negotiated = new WeakMap<IncomingMessage, Encoding>();

/**
 * The encoding of the answer to `req`, from ENCODINGS, best first; identity when the request
 * accepts none of them (`identity;q=0`: an answer without encoding beats none at all). Once per
 * request: the cache keys on it and compression makes it.
 */
export function negotiateEncoding(req: IncomingMessage): Encoding {
  let encoding = negotiated.get(req);
  if (encoding === undefined) {
    // negotiator 1.x takes a server preference for ties; its types predate it.
    const negotiator = new Negotiator(req) as unknown as {
      encoding(available: readonly string[], options: object): string | undefined;
    };
    const best = negotiator.encoding(ENCODINGS, { preferred: ENCODINGS });
    encoding = (best as Encoding | undefined) ?? 'identity';
    negotiated.set(req, encoding);
  }
  return encoding;
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The request headers a storable answer varies on (but Accept-Encoding), or undefined when it
 * may not be kept: not a 200 with a body, not for a shared cache, setting a cookie, or `Vary: *`.
 */
function storable(ctx: Context): string[] | undefined {
  if (ctx.status !== 200 || ctx.body == null) return undefined;
  if (NOT_STORABLE.test(ctx.response.get('Cache-Control')) || ctx.response.get('Set-Cookie')) {
    return undefined;
  }
  const vary = ctx.response
    .get('Vary')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '' && name !== 'accept-encoding');
  return vary.includes('*') ? undefined : vary;
}

async function toBuffer(body: unknown): Promise<Buffer> {
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Readable) {
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk);
    return Buffer.concat(chunks);
  }
  return Buffer.from(JSON.stringify(body));
}

function answerSize({ headers, body, varies }: CachedAnswer): number {
  let size = ENTRY_OVERHEAD + body.length;
  for (const [name, value] of varies) size += name.length + (value?.length ?? 0);
  for (const [name, value] of Object.entries(headers)) size += name.length + String(value).length;
  return size;
}
