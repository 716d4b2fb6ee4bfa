import cors from '@koa/cors';
import type { Context, Middleware } from 'koa';

export interface CorsOptions {
  /** `*`, or the origins allowed; an empty list turns CORS off. */
  origins: readonly string[];
  /** Request headers a preflight may ask for. */
  headers?: string[];
}

/** CORS for the requests `applies` selects (the JSON API), whose preflights allow `methods`. */
export function corsFor(
  applies: (ctx: Context) => boolean,
  methods: readonly string[],
  { origins, headers }: CorsOptions,
): Middleware {
  if (origins.length === 0) return (_ctx, next) => next();
  const anyOrigin = origins.includes('*');
  const handler = cors({
    // Any origin: the one value, as it is (a function would be awaited on every request).
    origin: anyOrigin
      ? '*'
      : (ctx) => {
          const origin = ctx.get('Origin');
          return origins.includes(origin) ? origin : '';
        },
    exposeHeaders: ['ETag', 'X-Request-Id', 'X-Total-Count', 'Link', 'Location'],
    maxAge: 600,
    allowMethods: [...methods],
    ...(headers && { allowHeaders: headers }),
  });
  return (ctx, next) => (applies(ctx) ? handler(ctx, next) : next());
}
