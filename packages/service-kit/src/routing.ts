import { METHODS } from 'node:http';
import KoaRouter, { type RouterOptions } from '@koa/router';
import type { Middleware } from 'koa';
import compose from 'koa-compose';
import type { KitState } from './middleware/path.js';
import type { Operation } from './operations.js';

/**
 * @koa/router matching a path in its exact case, as `jsonPaths` and the document read it, and
 * knowing every method Node does: one no route has is a 405 on a path that exists (not a 501).
 */
export class Router extends KoaRouter {
  constructor(options: RouterOptions = {}) {
    super({ sensitive: true, methods: METHODS, ...options });
  }
}

/** The router answers OPTIONS with an empty text/plain 200: Allow is the whole answer, a 204. */
const optionsWithoutBody: Middleware = (ctx, next) => {
  if (ctx.method !== 'OPTIONS') return next();
  return next().then(() => {
    if (ctx.status === 200 && ctx.body === '') ctx.status = 204;
  });
};

/**
 * The routers as one router's middleware, as @koa/router's README composes them: its routes,
 * then `allowedMethods` (405 with Allow, 204 to OPTIONS); a path no route has stays a 404.
 */
function routesOf(routers: readonly Router[], operations: readonly Operation[] = []): Middleware {
  const router = new Router();
  for (const part of routers) router.use(part.routes());
  for (const { method, path, use = [], handler } of operations)
    router[method](path, ...use, handler);
  // The router's middleware types ask for its own context, which it adds as it runs.
  return compose([
    optionsWithoutBody,
    router.routes() as unknown as Middleware,
    router.allowedMethods() as unknown as Middleware,
  ]);
}

/**
 * The routes by kind of path (`state.jsonPath`), so that a request is matched against its own
 * kind only: the JSON paths' (`apiRouters`, then the operations in order, each under a JSON path,
 * or the app is refused) and the pages' (after `pageMiddleware`).
 */
export function routing(parts: {
  isJsonPath: (path: string) => boolean;
  operations: readonly Operation[];
  apiRouters: readonly Router[];
  pageMiddleware: Middleware;
  pageRouters: readonly Router[];
}): Middleware<KitState> {
  for (const { method, path } of parts.operations) {
    if (!parts.isJsonPath(path))
      throw new Error(`${method.toUpperCase()} ${path} is not under jsonPaths`);
  }
  const api = routesOf(parts.apiRouters, parts.operations);
  const pages = compose([parts.pageMiddleware, routesOf(parts.pageRouters)]);
  return (ctx, next) => (ctx.state.jsonPath ? api(ctx, next) : pages(ctx, next));
}
