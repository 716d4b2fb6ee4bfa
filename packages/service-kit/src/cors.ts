import cors from '@koa/cors';
import type { Context, Middleware } from 'koa';
import { EXPOSED_HEADERS, requestHeadersOf } from './api-headers.js';
import type { Operation } from './operations.js';

export interface CorsOptions {
  /** `*`, or the origins allowed; an empty list turns CORS off. */
  origins: readonly string[];
}

/**
 * CORS for the requests `applies` selects (the JSON API): a preflight allows the operations'
 * methods (HEAD with GET) and the request headers they read; every answer lets a script read
 * the headers an API answer may carry (EXPOSED_HEADERS).
 */
export function corsFor(
  applies: (ctx: Context) => boolean,
  operations: readonly Operation[],
  { origins }: CorsOptions,
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
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 600,
    allowMethods: methodsOf(operations),
    allowHeaders: requestHeadersOf(operations),
  });
  const corsHandler = anyOrigin ? sameForEveryOrigin(handler) : handler;
  return (ctx, next) => (applies(ctx) ? corsHandler(ctx, next) : next());
}

/** The methods of the operations, as a preflight lists them (HEAD with GET). */
function methodsOf(operations: readonly Operation[]): string[] {
  const methods = new Set(operations.map((operation) => operation.method.toUpperCase()));
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods];
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
