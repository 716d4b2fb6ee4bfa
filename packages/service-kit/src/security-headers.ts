import helmet, { type HelmetOptions } from 'helmet';
import type { Middleware } from 'koa';

/**
 * The security headers helmet decides for these options. They are the same for every answer,
 * so helmet runs once, here, and answers get them in one go (helmet's own middleware chain,
 * run on every request, cost about a third of a cached answer's time).
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const collect = {
    setHeader: (name: string, value: unknown) => {
      headers[name] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name];
    },
  };
  helmet(options)({} as never, collect as never, () => {});
  return headers;
}

/** Sets these headers on every answer, before the rest runs. */
export const withHeaders =
  (headers: Record<string, string>): Middleware =>
  (ctx, next) => {
    ctx.set(headers);
    return next();
  };
