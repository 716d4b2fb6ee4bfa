import etag from '@koa/etag';
import type { Middleware } from 'koa';

const NO_STORE = /(?:^|,)\s*no-store\b/i;
const weakEtag = etag({ weak: true });
const nothingBelow = async () => {};

/**
 * Conditional GET: a weak ETag of the bytes sent for every answer that may be stored, and 304
 * (no body) when the request's If-None-Match or If-Modified-Since matches. An answer that must
 * not be stored (a random page, a health check) has nothing to revalidate: no ETag, never 304.
 */
export const conditionalGet: Middleware = async (ctx, next) => {
  await next();
  if (NO_STORE.test(ctx.response.get('Cache-Control'))) return;
  await weakEtag(ctx, nothingBelow);
  if (ctx.fresh) {
    ctx.status = 304;
    ctx.body = null;
  }
};
