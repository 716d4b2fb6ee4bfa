// Hand-written: no maintained Koa middleware normalizes only the unreserved percent-escapes
// (koa-normalize-path and the like decode everything or redirect).
import KoaRouter, { type RouterOptions } from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { Operation } from './operations.js';

/** @koa/router matching a path in its exact case, as `jsonPaths` and the document read it. */
export class Router extends KoaRouter {
  constructor(options: RouterOptions = {}) {
    super({ sensitive: true, ...options });
  }
}

/** A percent-escape, and the characters RFC 3986 calls unreserved. */
const ESCAPE = /%[0-9A-Fa-f]{2}/g;
const UNRESERVED = /^[A-Za-z0-9._~-]$/;

/**
 * The path with each percent-encoded unreserved character as the plain one (RFC 3986 section
 * 6.2.2.2): `/api/games/%74op-rated` is `/api/games/top-rated`. Every other escape (`%2F`,
 * `%20`, `%E2%82%AC`) is left as it is, for the routes to decode.
 */
export function normalizedPath(path: string): string {
  if (!path.includes('%')) return path;
  return path.replace(ESCAPE, (encoded) => {
    const character = String.fromCharCode(Number.parseInt(encoded.slice(1), 16));
    return UNRESERVED.test(character) ? character : encoded;
  });
}

/** Before anything reads the path: every step sees `%74op-rated` as `top-rated`. */
export function normalizePath(ctx: Context): void {
  const normal = normalizedPath(ctx.path);
  if (normal !== ctx.path) ctx.path = normal;
}

/**
 * A router's routes as one middleware: a method no route has gets 405 with Allow on a path that
 * exists, 404 on one that does not (@koa/router answers 501 to both), and OPTIONS 204 with Allow.
 */
function routesOf(router: Router): Middleware {
  // The router's middleware types ask for its own context, which it adds as it runs.
  const dispatch = router.routes() as unknown as Middleware;
  const allowedMethods = router.allowedMethods() as unknown as Middleware;
  const nothingBelow = async () => {};
  const unmatched = async (ctx: Context) => {
    await allowedMethods(ctx, nothingBelow);
    if (ctx.response.status === 501) ctx.status = ctx.response.get('Allow') ? 405 : 404;
    // The router answers OPTIONS with an empty text/plain 200: Allow is the whole answer.
    else if (ctx.method === 'OPTIONS' && ctx.response.status === 200) ctx.status = 204;
  };
  return (ctx) => dispatch(ctx, () => unmatched(ctx));
}

/**
 * A router per kind of route, so that a request is matched against its own kind only: the JSON
 * paths' (`apiRouters`, then the operations in order, each under a JSON path) and the pages'.
 */
export function routing(
  isJsonPath: (path: string) => boolean,
  operations: readonly Operation[],
  apiRouters: readonly Router[],
  pages: readonly Router[],
): { api: Middleware; pages: Middleware } {
  const combined = (routers: readonly Router[]) => {
    const router = new Router();
    for (const part of routers) router.use(part.routes());
    return router;
  };
  const api = combined(apiRouters);
  for (const { method, path, use = [], handler } of operations) {
    if (!isJsonPath(path))
      throw new Error(`${method.toUpperCase()} ${path} is not under jsonPaths`);
    api[method](path, ...use, handler);
  }
  return { api: routesOf(api), pages: routesOf(combined(pages)) };
}
