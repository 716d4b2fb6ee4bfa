// Hand-written: no maintained Koa cache keys on the negotiated encoding or empties on writes.
import { Readable } from 'node:stream';
import type { Context, Middleware } from 'koa';
import { LRUCache } from 'lru-cache';
import Negotiator from 'negotiator';

/** The encodings a cached answer can have, best first (compression below the cache makes them). */
export const ENCODINGS = ['br', 'gzip', 'identity'] as const;
export type Encoding = (typeof ENCODINGS)[number];

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Directives that forbid a shared cache to store an answer (RFC 9111). */
const NOT_STORABLE = /(?:^|,)\s*(?:no-store|private)\b/i;
/** Rough cost of an entry beyond its body, so that many tiny entries still count. */
const ENTRY_OVERHEAD = 256;

interface Entry {
  headers: Record<string, string | string[] | number>;
  body: Buffer;
  /** The route template that made it, for the request log and metrics of a hit. */
  route: unknown;
}

export interface ResponseCache {
  middleware: Middleware;
  /** What the kept answers weigh, in bytes (bodies, headers and a fixed overhead each). */
  readonly bytes: number;
  readonly entries: number;
}

/**
 * The one response cache of a service. A GET answered 200 whose Cache-Control allows a shared
 * cache to store it is kept, as the bytes sent, under its method, path with query and the
 * encoding negotiated from ENCODINGS (never a raw header value); the next identical GETs are
 * answered from memory without running anything below. The total is bounded by `maxBytes`,
 * least recently used first out. Any write (an unsafe method that was not a client error)
 * empties it, and an answer computed while a write finished is not kept: exact for a process
 * that sees every write to its data.
 */
export function responseCache(maxBytes: number): ResponseCache {
  const cache = new LRUCache<string, Entry>({
    maxSize: maxBytes,
    maxEntrySize: Math.max(1, Math.floor(maxBytes / 4)),
    sizeCalculation: (entry) => entrySize(entry),
  });
  let writes = 0;

  const middleware: Middleware = async (ctx, next) => {
    if (ctx.method !== 'GET') {
      if (SAFE_METHODS.has(ctx.method)) return next();
      try {
        await next();
      } finally {
        if (ctx.status < 400 || ctx.status >= 500) {
          writes++;
          cache.clear();
        }
      }
      return;
    }
    const encoding = negotiate(ctx);
    // Compression below sees exactly the encoding this entry is kept under.
    ctx.request.headers['accept-encoding'] = encoding;
    const key = `GET ${ctx.url} ${encoding}`;
    const hit = cache.get(key);
    if (hit) {
      (ctx as { _matchedRoute?: unknown })._matchedRoute = hit.route;
      ctx.status = 200;
      ctx.set(hit.headers as Record<string, string>);
      ctx.body = hit.body;
      return;
    }
    const writesBefore = writes;
    const headersBefore = { ...ctx.response.headers };
    await next();
    if (!storable(ctx)) return;
    const body = await toBuffer(ctx.body);
    ctx.body = body;
    if (writes !== writesBefore) return;
    const headers: Entry['headers'] = {};
    for (const [name, value] of Object.entries(ctx.response.headers)) {
      if (value !== undefined && headersBefore[name] !== value) headers[name] = value;
    }
    cache.set(key, { headers, body, route: (ctx as { _matchedRoute?: unknown })._matchedRoute });
  };

  return {
    middleware,
    get bytes() {
      return cache.calculatedSize;
    },
    get entries() {
      return cache.size;
    },
  };
}

function negotiate(ctx: Context): Encoding {
  const negotiator = new Negotiator(ctx.request);
  // negotiator 1.x takes a server preference for ties; its types predate it.
  const encoding = (
    negotiator.encoding as (available: readonly string[], options: object) => string | undefined
  )(ENCODINGS, { preferred: ENCODINGS });
  return (encoding as Encoding | undefined) ?? 'identity';
}

function storable(ctx: Context): boolean {
  return (
    ctx.status === 200 &&
    ctx.body != null &&
    !NOT_STORABLE.test(ctx.response.get('Cache-Control')) &&
    !ctx.response.get('Set-Cookie')
  );
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

function entrySize({ headers, body }: Entry): number {
  let size = ENTRY_OVERHEAD + body.length;
  for (const [name, value] of Object.entries(headers)) size += name.length + String(value).length;
  return size;
}
