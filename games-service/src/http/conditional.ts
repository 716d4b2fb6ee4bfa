import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';

/**
 * A weak ETag for rendered GET responses (prepared ones carry their own), and 304 when
 * the client's copy matches. Weak, because compression may change the bytes.
 */
export function conditionalGet(): Middleware {
  return async (ctx, next) => {
    await next();
    if (!['GET', 'HEAD'].includes(ctx.method) || ctx.status !== 200 || ctx.response.get('ETag'))
      return;
    // An answer that must not be stored (a random page) has nothing to revalidate.
    if (ctx.response.get('Cache-Control').includes('no-store')) return;
    const body = ctx.body;
    if (typeof body !== 'string' && !Buffer.isBuffer(body)) return;
    ctx.etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
    if (ctx.fresh) ctx.status = 304;
  };
}
