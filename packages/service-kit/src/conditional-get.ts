import koaEtag from '@koa/etag';
import calculateEtag from 'etag';
import type { Middleware } from 'koa';

const NO_STORE = /(?:^|,)\s*no-store\b/i;
const WEAK = { weak: true };
/** @koa/etag, for a file sent as a stream (an asset): from its size and modification time. */
const fileEtag = koaEtag(WEAK);
const nothingBelow = async () => {};

/**
 * Conditional GET: a weak ETag for every answer that may be stored, and 304 (no body) when the
 * request's If-None-Match or If-Modified-Since matches. A body of text or bytes is hashed once,
 * as the bytes sent (a page is encoded to UTF-8 here, once, rather than once to hash it and once
 * more to send it). An answer that must not be stored (a random page, a health check) has
 * nothing to revalidate: no ETag, never 304.
 */
export const conditionalGet: Middleware = async (ctx, next) => {
  await next();
  if (NO_STORE.test(ctx.response.get('Cache-Control'))) return;
  if (typeof ctx.body === 'string') ctx.body = Buffer.from(ctx.body);
  const { body } = ctx;
  if (Buffer.isBuffer(body)) {
    const ok = ctx.status >= 200 && ctx.status < 300;
    if (ok && body.length > 0 && !ctx.response.get('ETag')) {
      ctx.response.etag = calculateEtag(body, WEAK);
    }
  } else await fileEtag(ctx, nothingBelow);
  const { headers } = ctx.request;
  if ((headers['if-none-match'] || headers['if-modified-since']) && ctx.fresh) {
    ctx.status = 304;
    ctx.body = null;
  }
};
