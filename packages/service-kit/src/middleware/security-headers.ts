import helmet from 'helmet';
import type { Context, Middleware } from 'koa';
import type { KitState } from './path.js';

/** The Content-Security-Policy of sites whose pages load only their own assets. */
const PAGES_POLICY = {
  defaultSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

const REFERRER_POLICY = 'strict-origin-when-cross-origin';
const FRAMING = 'deny';

/**
 * By hand, not through helmet: a JSON answer is no document (it loads, frames and runs nothing),
 * so it gets five fixed headers (OWASP's REST Security Cheat Sheet), and so do the errors Node's
 * parser raises, which are written to the socket where no middleware runs. helmet's other
 * defaults speak to documents, and would cost every API answer their bytes.
 */
export const API_SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  ['Content-Security-Policy', "default-src 'none';frame-ancestors 'none'"],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Referrer-Policy', REFERRER_POLICY],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', FRAMING.toUpperCase()],
];

/**
 * Pages get helmet, as its README shows it, connect-style on Node's request and response; JSON
 * answers the fixed headers. `secure` sets them on a context; `middleware` before the routes.
 */
export function securityHeaders(contentSecurityPolicy: Record<string, string[]> = PAGES_POLICY): {
  secure: (ctx: Context) => void;
  middleware: Middleware<KitState>;
} {
  const pageHeaders = helmet({
    frameguard: { action: FRAMING },
    referrerPolicy: { policy: REFERRER_POLICY },
    strictTransportSecurity: false,
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy },
  });
  const rethrow = (error?: unknown) => {
    if (error) throw error;
  };
  const secure = (ctx: Context) => {
    if (!(ctx.state as KitState).jsonPath) return pageHeaders(ctx.req, ctx.res, rethrow);
    for (const [name, value] of API_SECURITY_HEADERS) ctx.set(name, value);
  };
  return {
    secure,
    middleware: (ctx, next) => {
      secure(ctx);
      return next();
    },
  };
}
