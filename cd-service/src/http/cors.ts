import cors from '@koa/cors';
import type { Context, Middleware } from 'koa';

/**
 * CORS for the requests `applies` selects. `origins` is `*` or a list of allowed origins;
 * an empty list (the default of cd-service) turns CORS off. A preflight may ask for the
 * writes, with a bearer token and a JSON body.
 */
export function corsFor(
  applies: (ctx: Context) => boolean,
  origins: readonly string[],
): Middleware {
  if (origins.length === 0) return (_ctx, next) => next();
  const anyOrigin = origins.includes('*');
  const handler = cors({
    origin: (ctx) => {
      if (anyOrigin) return '*';
      const origin = ctx.get('Origin');
      return origins.includes(origin) ? origin : '';
    },
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    allowHeaders: ['Authorization', 'Content-Type', 'If-None-Match', 'X-Request-Id'],
    exposeHeaders: ['ETag', 'X-Request-Id', 'X-Total-Count', 'Link', 'Location'],
    maxAge: 600,
  });
  return (ctx, next) => (applies(ctx) ? handler(ctx, next) : next());
}

/** `CORS_ORIGINS`: a comma-separated list of origins, or `*`. */
export function parseOrigins(value: string | undefined, fallback: readonly string[]): string[] {
  if (value === undefined) return [...fallback];
  return value
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
}
