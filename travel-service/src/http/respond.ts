import { createHash } from 'node:crypto';
import type { Context } from 'koa';

/** A response body serialized once, with its validator, for data that never changes. */
export interface Prepared {
  body: Buffer;
  etag: string;
  type: string;
}

export function prepare(body: string | Buffer, type: string): Prepared {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const etag = `"${createHash('sha1').update(bytes).digest('base64url')}"`;
  return { body: bytes, etag, type };
}

export const prepareJson = (value: unknown): Prepared =>
  prepare(JSON.stringify(value), 'application/json; charset=utf-8');

/** Sends a prepared body, or 304 when the client already holds it. */
export function sendPrepared(ctx: Context, prepared: Prepared, cacheControl: string): void {
  ctx.status = 200;
  ctx.type = prepared.type;
  ctx.set('Cache-Control', cacheControl);
  ctx.etag = prepared.etag;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = prepared.body;
}

/** Caches a function's answers by key; only for keys drawn from a bounded set. */
export function memoize<K, V>(compute: (key: K) => V): (key: K) => V {
  const cache = new Map<K, V>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = compute(key);
      cache.set(key, value);
    }
    return value;
  };
}
