import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from './errors.js';

/**
 * Parses a JSON body into ctx.request.body: 400 when there is none or it is malformed,
 * 415 when it is not JSON, 413 when it is over `limit`. A `__proto__` key is refused (400).
 */
export function jsonBody(limit = '100kb'): Middleware {
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: limit, jsonStrict: true });
  return async (ctx, next) => {
    if (!ctx.request.length && ctx.get('Transfer-Encoding') === '') {
      throw new BadRequest('This needs a JSON object body');
    }
    if (!ctx.is('application/json')) {
      throw new UnsupportedMediaType('The body must be JSON (Content-Type: application/json)');
    }
    try {
      await parse(ctx, async () => {});
    } catch (error) {
      const { status, message } = error as { status?: unknown; message: string };
      if (status === 413) throw new PayloadTooLarge(`The body is larger than ${limit}`);
      if (status === 400) {
        throw new BadRequest(
          /prototype/.test(message)
            ? 'The body may not hold a __proto__ or constructor.prototype key'
            : `The body is not valid JSON: ${message}`,
        );
      }
      if (status === 415) throw new UnsupportedMediaType(`The body cannot be read: ${message}`);
      throw error;
    }
    await next();
  };
}
