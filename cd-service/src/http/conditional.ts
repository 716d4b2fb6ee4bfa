import { createHash } from 'node:crypto';
import { Stream } from 'node:stream';
import type { Middleware } from 'koa';

/**
 * A weak ETag for GET responses computed from the serialized body (prepared ones carry their
 * own), and 304 when the client's copy matches. A JSON body is serialized here, once, so that
 * the validator is the hash of the very bytes sent. Weak, because compression may change them.
 */
export function conditionalGet(): Middleware {
  return async (ctx, next) => {
    await next();
    if (!['GET', 'HEAD'].includes(ctx.method) || ctx.status !== 200 || ctx.response.get('ETag'))
      return;
    let body = ctx.body;
    if (body != null && typeof body === 'object' && !Buffer.isBuffer(body)) {
      if (body instanceof Stream) return;
      body = JSON.stringify(body);
      ctx.body = body; // Content-Type stays application/json, set with the object.
    }
    if (typeof body !== 'string' && !Buffer.isBuffer(body)) return;
    ctx.etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
    if (ctx.fresh) ctx.status = 304;
  };
}
