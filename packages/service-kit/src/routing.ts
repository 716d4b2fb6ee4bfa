import type { Context, Middleware } from 'koa';
import { mount, type Operation } from './operations.js';
import { Router } from './paths.js';

/**
 * A router's routes as one middleware, with the kit's rules for a path no route answers with
 * this method: a method no route has (PROPFIND, SEARCH, ...) gets 405 with Allow on a path that
 * exists, 404 on one that does not (@koa/router answers 501 to both). OPTIONS gets 204 with
 * Allow. A path belongs to one router only (see `routing`), so Allow names all its methods.
 */
function routesOf(router: Router): Middleware {
  // The router's middleware types ask for its own context, which it adds as it runs.
  const dispatch = router.routes() as unknown as Middleware;
  const allowedMethods = router.allowedMethods() as unknown as Middleware;
  const nothingBelow = async () => {};
  // Only a request no route answered (the router passes it on) asks which methods the path has.
  const unmatched = async (ctx: Context) => {
    await allowedMethods(ctx, nothingBelow);
    if (ctx.response.status === 501) ctx.status = ctx.response.get('Allow') ? 405 : 404;
    // The router answers OPTIONS with an empty text/plain 200: Allow is the whole answer.
    else if (ctx.method === 'OPTIONS' && ctx.response.status === 200) ctx.status = 204;
  };
  // Nothing is below the routes.
  return (ctx) => dispatch(ctx, () => unmatched(ctx));
}

/**
 * A router per kind of route, so that a request is matched against its own kind only: the
 * JSON paths' (the operations, every one under a JSON path, checked here, after `apiRouters`)
 * and the pages' (/docs among them).
 */
export function routing(
  isJsonPath: (path: string) => boolean,
  {
    operations,
    apiRouters,
    pages,
  }: { operations: readonly Operation[]; apiRouters: readonly Router[]; pages: readonly Router[] },
): { api: Middleware; pages: Middleware } {
  for (const { method, path } of operations) {
    if (!isJsonPath(path))
      throw new Error(`${method.toUpperCase()} ${path} is not under jsonPaths`);
  }
  const combined = (routers: readonly Router[]) => {
    const router = new Router();
    for (const part of routers) router.use(part.routes());
    return router;
  };
  return {
    api: routesOf(mount(combined(apiRouters), operations)),
    pages: routesOf(combined(pages)),
  };
}
