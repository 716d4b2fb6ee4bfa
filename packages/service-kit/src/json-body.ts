/// <reference types="@koa/bodyparser" preserve="true" />
import { bodyParser } from '@koa/bodyparser';
import createError from 'http-errors';
import type { Middleware } from 'koa';
import { BadRequest, CLOSE_CONNECTION } from './errors.js';

const UTF8 = new Set(['', 'utf-8', 'utf8']);

/**
 * Parses a JSON body into ctx.request.body: 400 when there is none, it is malformed or its
 * Content-Encoding does not decode; 415 when it is not JSON, not UTF-8 or in an encoding we do
 * not take (gzip, deflate and br are taken); 413 when it is over `limit`, and the rest of it is
 * not read. A `__proto__` key is refused (400).
 */
export function jsonBody(limit = '100kb'): Middleware {
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: limit, jsonStrict: true });
  return async (ctx, next) => {
    if (!ctx.request.length && ctx.get('Transfer-Encoding') === '') {
      throw new BadRequest('This needs a JSON object body');
    }
    if (!ctx.is('application/json')) {
      throw createError(415, 'The body must be JSON (Content-Type: application/json)');
    }
    const charset = ctx.request.charset.toLowerCase();
    if (!UTF8.has(charset)) {
      throw createError(415, `The body must be UTF-8 (charset=utf-8), not ${charset}`);
    }
    // Content codings are case-insensitive (RFC 9110); the parser knows them in lower case.
    const coding = ctx.get('Content-Encoding');
    if (coding) ctx.req.headers['content-encoding'] = coding.toLowerCase();
    try {
      await parse(ctx, async () => {});
    } catch (error) {
      const { status, message } = error as { status?: unknown; message: string };
      if (status === 413) {
        throw createError(413, `The body is larger than ${limit}`, CLOSE_CONNECTION);
      }
      if (status === 400) {
        throw new BadRequest(
          /prototype/.test(message)
            ? 'The body may not hold a __proto__ or constructor.prototype key'
            : `The body is not valid JSON: ${message}`,
        );
      }
      if (status === 415) throw createError(415, `The body cannot be read: ${message}`);
      const encoding = ctx.get('Content-Encoding');
      // zlib's own errors (a broken or truncated gzip, deflate or br body) carry no status.
      if (status === undefined && encoding !== '') {
        throw createError(
          400,
          `The body is not valid ${encoding} data: ${message}`,
          CLOSE_CONNECTION,
        );
      }
      throw error;
    }
    await next();
  };
}
