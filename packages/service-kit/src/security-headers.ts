import helmet from 'helmet';
import type { Context } from 'koa';

/** The Content-Security-Policy of sites whose pages load only their own assets. */
const PAGES_POLICY = {
  defaultSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** What every answer says, page or JSON. */
const SHARED = {
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  strictTransportSecurity: false,
} as const;

/**
 * A JSON answer is no document: it loads, frames and runs nothing, so it gets the headers that
 * still apply to it (OWASP's REST Security Cheat Sheet): a policy allowing nothing, nosniff,
 * X-Frame-Options, Referrer-Policy and Cross-Origin-Resource-Policy. The others of helmet's
 * defaults speak to documents, and would cost every API answer their bytes.
 */
const API_HEADERS = {
  ...SHARED,
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  },
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
} as const;

/** helmet as its README shows it, connect-style on Node's request and response. */
export function securityHeaders(
  isJson: (ctx: Context) => boolean,
  contentSecurityPolicy: Record<string, string[]> = PAGES_POLICY,
): (ctx: Context) => void {
  const rethrow = (error?: unknown) => {
    if (error) throw error;
  };
  const connectStyle = (setHeaders: ReturnType<typeof helmet>) => (ctx: Context) =>
    setHeaders(ctx.req, ctx.res, rethrow);
  const page = connectStyle(
    helmet({
      ...SHARED,
      contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy },
    }),
  );
  const api = connectStyle(helmet(API_HEADERS));
  return (ctx) => (isJson(ctx) ? api(ctx) : page(ctx));
}
