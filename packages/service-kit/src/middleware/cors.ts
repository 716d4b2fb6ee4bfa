// Hand-written: @koa/cors 5 has no option to leave out `Vary: Origin` when every origin is
// allowed, which would make a shared cache (the stack's edge) keep one copy per origin.
import type { Middleware } from 'koa';
import { EXPOSED_HEADERS } from '../api-headers.js';
import type { Operation } from '../operations.js';
import type { KitState } from './path.js';

/**
 * CORS for the JSON paths, from `origins` (`*`, or a list; none turns it off), as the kit README
 * says. With `*`, every answer says so, Origin or not. A preflight is answered here.
 */
export function cors(
  operations: readonly Operation[],
  origins: readonly string[],
): Middleware<KitState> {
  if (origins.length === 0) return (_ctx, next) => next();
  const anyOrigin = origins.includes('*');
  const methods = new Set<string>();
  const headers = new Set(['X-Request-Id']);
  for (const op of operations) {
    methods.add(op.method.toUpperCase());
    if (op.method === 'get') headers.add('If-None-Match');
    if (op.bearerAuth) headers.add('Authorization');
    if (op.requestBody) headers.add('Content-Type');
    for (const { in: place, name } of op.parameters ?? [])
      if (place === 'header') headers.add(name);
  }
  if (methods.has('GET')) methods.add('HEAD');
  const preflight = {
    'Access-Control-Allow-Methods': [...methods].join(','),
    'Access-Control-Allow-Headers': [...headers].sort().join(','),
    'Access-Control-Max-Age': '600',
  };
  const exposed = EXPOSED_HEADERS.join(',');
  return (ctx, next) => {
    if (!ctx.state.jsonPath) return next();
    let allowed = '*';
    if (!anyOrigin) {
      ctx.vary('Origin');
      allowed = ctx.get('Origin');
      if (!origins.includes(allowed)) return next();
    }
    ctx.set('Access-Control-Allow-Origin', allowed);
    if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method')) {
      ctx.set(preflight);
      ctx.status = 204;
      return;
    }
    ctx.set('Access-Control-Expose-Headers', exposed);
    return next();
  };
}
