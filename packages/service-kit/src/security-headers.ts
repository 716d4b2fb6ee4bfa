import helmet from 'helmet';
import type { Middleware } from 'koa';

/** The Content-Security-Policy of sites whose pages load only their own assets. */
const PAGES_POLICY = {
  defaultSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * The security headers helmet decides for this Content-Security-Policy (helmet's directives;
 * the pages' own policy by default). They are the same for every answer, so helmet runs once,
 * here, and answers get them in one go.
 */
export function securityHeaders(
  contentSecurityPolicy: Record<string, string[]> = PAGES_POLICY,
): Record<string, string> {
  const headers: Record<string, string> = {};
  const collect = {
    setHeader: (name: string, value: unknown) => {
      headers[name] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name];
    },
  };
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: false,
  })({} as never, collect as never, () => {});
  return headers;
}

/** Sets these headers on every answer, before the rest runs (on Node's response: nothing is sent yet). */
export function withHeaders(headers: Record<string, string>): Middleware {
  const entries = Object.entries(headers);
  return (ctx, next) => {
    for (const [name, value] of entries) ctx.res.setHeader(name, value);
    return next();
  };
}
