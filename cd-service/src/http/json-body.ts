import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { httpError } from './errors.js';

export const BODY_LIMIT = '100kb';

const parse = bodyParser({ enableTypes: ['json'], jsonLimit: BODY_LIMIT, jsonStrict: true });

/**
 * Parses a JSON body into ctx.request.body: 400 when there is none or it is malformed,
 * 415 when it is not JSON, 413 when it is over 100 KB. A `__proto__` key is refused (400).
 */
export function jsonBody(): Middleware {
  return async (ctx, next) => {
    if (!ctx.request.length && ctx.get('Transfer-Encoding') === '') {
      throw httpError(400, 'This needs a JSON object body');
    }
    if (!ctx.is('application/json')) {
      throw httpError(415, 'The body must be JSON (Content-Type: application/json)');
    }
    try {
      await parse(ctx, async () => {});
    } catch (error) {
      const status = (error as { status?: unknown }).status;
      if (status === 413) throw httpError(413, `The body is larger than ${BODY_LIMIT}`);
      if (status === 400) {
        const message = (error as Error).message;
        throw httpError(
          400,
          /prototype/.test(message)
            ? 'The body may not hold a __proto__ or constructor.prototype key'
            : `The body is not valid JSON: ${message}`,
        );
      }
      if (status === 415)
        throw httpError(415, `The body cannot be read: ${(error as Error).message}`);
      throw error;
    }
    await next();
  };
}
