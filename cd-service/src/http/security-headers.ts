import type { Middleware } from 'koa';

/** Every answer is JSON: nothing may be loaded, framed or sniffed. */
const headers = {
  'Content-Security-Policy': "default-src 'none'; base-uri 'none'; frame-ancestors 'none'",
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
