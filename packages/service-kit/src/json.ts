import type { Context } from 'koa';

/**
 * An answer's JSON body as the text sent, serialized here once: the ETag and compression above
 * see it, and Node writes it with the headers.
 */
export function serializeJson(ctx: Context): void {
  const { body } = ctx;
  if (
    body &&
    typeof body === 'object' &&
    !Buffer.isBuffer(body) &&
    typeof (body as { pipe?: unknown }).pipe !== 'function'
  ) {
    ctx.body = JSON.stringify(body);
  }
}
