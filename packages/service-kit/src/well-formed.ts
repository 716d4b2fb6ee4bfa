import type { Middleware } from 'koa';
import { BadRequest } from './errors.js';

/**
 * What Node lets through but no route can answer: an HTTP/1.1 request without Host, and a query
 * whose percent-encoding is broken (Koa would silently keep the raw text).
 */
export const wellFormedRequest: Middleware = (ctx, next) => {
  if (ctx.req.httpVersion === '1.1' && !ctx.req.headers.host) {
    throw new BadRequest('An HTTP/1.1 request needs a Host header');
  }
  const query = ctx.querystring;
  // Only a `%` can be broken.
  if (query.includes('%')) {
    for (const part of query.split('&')) {
      try {
        decodeURIComponent(part);
      } catch {
        const field = part.split('=')[0] ?? part;
        throw new BadRequest(`The query parameter ${field} is not valid percent-encoding`, [
          { field, message: 'is not valid percent-encoding' },
        ]);
      }
    }
  }
  return next();
};
