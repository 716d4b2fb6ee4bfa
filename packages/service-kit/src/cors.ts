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
  const corsHandler = anyOrigin ? sameForEveryOrigin(handler) : handler;
  return (ctx, next) => (applies(ctx) ? corsHandler(ctx, next) : next());
}

/**
 * With every origin allowed (`*`) the answer does not depend on Origin, yet @koa/cors 5 says
 * `Vary: Origin` on every answer, so a shared cache (the stack's edge) would keep one copy per
 * origin, or none. This takes Origin out of Vary again, on an error's headers too.
 */
function sameForEveryOrigin(handler: Middleware): Middleware {
  return async (ctx, next) => {
    try {
      await handler(ctx, next);
    } catch (error) {
      const headers = (error as { headers?: Record<string, string> }).headers;
      if (headers && typeof headers.vary === 'string') {
        const vary = withoutOrigin(headers.vary);
        if (vary) headers.vary = vary;
        else delete headers.vary;
      }
      throw error;
    } finally {
      const vary = withoutOrigin(ctx.response.get('Vary'));
      if (vary) ctx.set('Vary', vary);
      else ctx.remove('Vary');
    }
  };
}

function withoutOrigin(vary: string): string {
  return vary
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '' && name.toLowerCase() !== 'origin')
    .join(', ');
}
