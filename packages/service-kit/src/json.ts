import type { Middleware } from 'koa';

/**
 * A JSON body is serialized here, once, to the bytes sent: the ETag and compression above see
 * them, and Node sends them as they are.
 */
export const serializeJson: Middleware = async (ctx, next) => {
  await next();
  const { body } = ctx;
  if (
    body &&
    typeof body === 'object' &&
    !Buffer.isBuffer(body) &&
    typeof (body as { pipe?: unknown }).pipe !== 'function'
  ) {
    ctx.body = Buffer.from(JSON.stringify(body));
  }
};
