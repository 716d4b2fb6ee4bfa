import type { Context } from 'koa';

/**
 * An answer's JSON body as the bytes sent, serialized here once: the ETag and compression
 * above see them, and Node sends them as they are.
 */
export function serializeJson(ctx: Context): void {
  const { body } = ctx;
  if (
    body &&
    typeof body === 'object' &&
    !Buffer.isBuffer(body) &&
    typeof (body as { pipe?: unknown }).pipe !== 'function'
  ) {
    ctx.body = Buffer.from(JSON.stringify(body));
  }
}
