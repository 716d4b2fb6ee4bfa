import helmet from 'helmet';
import type { Context, Middleware } from 'koa';

/** The Content-Security-Policy of sites whose pages load only their own assets. */
const PAGES_POLICY = {
  defaultSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** Sets the security headers on an answer (on Node's response, before anything is sent). */
export type SecurityHeaders = (ctx: Context) => void;

/**
 * helmet, as its README shows it (a connect-style middleware, given Node's request and
 * response), with this Content-Security-Policy (helmet's directives; the pages' own by default).
 */
export function securityHeaders(
  contentSecurityPolicy: Record<string, string[]> = PAGES_POLICY,
): SecurityHeaders {
  const setHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: false,
  });
  return (ctx) =>
    setHeaders(ctx.req, ctx.res, (error?: unknown) => {
      if (error) throw error;
    });
}

/** Sets these headers on every answer, before the rest runs. */
export function withHeaders(setHeaders: SecurityHeaders): Middleware {
  return (ctx, next) => {
    setHeaders(ctx);
    return next();
  };
}
