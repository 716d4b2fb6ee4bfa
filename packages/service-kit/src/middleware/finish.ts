import { Stream } from 'node:stream';
import type { Middleware } from 'koa';
import { compress } from '../compression.js';
import { conditionalGet } from '../conditional-get.js';

/**
 * The answer's last steps, once the routes gave it: an object body serialized to JSON once (so
 * that its tag and its encoding see what is sent), its ETag and a 304 when the client has it,
 * then its compression. Not an error status without a body: that one is the error middleware's.
 * An answer whose headers a route already sent takes none: Koa ends it as it is.
 */
export const finish: Middleware = async (ctx, next) => {
  // Said first, so that an error's answer says it too, as every other does.
  ctx.vary('Accept-Encoding');
  await next();
  if (ctx.res.headersSent || (ctx.status >= 400 && ctx.body == null)) return;
  const { body } = ctx;
  if (body && typeof body === 'object' && !Buffer.isBuffer(body) && !(body instanceof Stream))
    ctx.body = JSON.stringify(body);
  conditionalGet(ctx);
  compress(ctx);
};
