// Hand-written: the maintained bearer-token middlewares compare tokens in variable time.
import { createHash, timingSafeEqual } from 'node:crypto';
import createError from 'http-errors';
import type { Operation } from 'service-kit';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Requests need `Authorization: Bearer <token>`; with no token set, everything passes. Both
 * tokens are hashed first, so that the constant-time comparison sees equal lengths and leaks
 * neither content nor length. The challenge says `invalid_token` for a bearer token that is not
 * the one, and no error code when none was sent (RFC 6750 §3.1).
 */
export function requireToken(token: string | undefined): Operation['handler'] {
  if (token === undefined) return (_ctx, next) => next();
  const expected = digest(token);
  return async (ctx, next) => {
    const given = /^Bearer +(\S+) *$/i.exec(ctx.get('Authorization'))?.[1];
    if (given === undefined) {
      throw createError(401, 'This needs a bearer token: Authorization: Bearer <token>', {
        headers: { 'WWW-Authenticate': 'Bearer' },
      });
    }
    if (!timingSafeEqual(digest(given), expected)) {
      throw createError(401, 'The bearer token is not valid: Authorization: Bearer <token>', {
        headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
      });
    }
    await next();
  };
}
