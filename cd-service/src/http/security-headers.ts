import type { Middleware } from 'koa';

/**
 * Every answer is JSON but the API reference (/docs), which loads only its own stylesheet
 * and icon: nothing else may be loaded, framed, sniffed or submitted.
 */
const headers = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set(headers);
    await next();
  };
}
