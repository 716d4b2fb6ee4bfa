import type { Middleware } from 'koa';
import { type Api, docsPage, type RenderKitView } from './docs.js';
import { mount } from './operations.js';
import { Router } from './paths.js';

/**
 * Every route in one router, so that 405 names every method of a path: the pages, /docs, then
 * the operations. A method no route has (PROPFIND, SEARCH, ...) gets 405 with Allow on a path
 * that exists, 404 on one that does not (@koa/router answers 501 to both). OPTIONS gets 204
 * with Allow.
 */
export function routing(
  pages: readonly Router[],
  api: Api,
  renderKitView: RenderKitView,
): Middleware {
  const router = new Router();
  for (const part of [...pages, docsPage(api.document, renderKitView)]) router.use(part.routes());
  mount(router, api.operations);
  // The router's middleware types ask for its own context, which it adds as it runs.
  const dispatch = router.routes() as unknown as Middleware;
  const allowedMethods = router.allowedMethods() as unknown as Middleware;
  const nothingBelow = async () => {};
  return async (ctx, next) => {
    await dispatch(ctx, next);
    // Only a request no route answered asks which methods the path has.
    if (ctx.body != null || ctx.status !== 404) return;
    await allowedMethods(ctx, nothingBelow);
    if (ctx.response.status === 501) ctx.status = ctx.response.get('Allow') ? 405 : 404;
    // The router answers OPTIONS with an empty text/plain 200: Allow is the whole answer.
    else if (ctx.method === 'OPTIONS' && ctx.response.status === 200) ctx.status = 204;
  };
}
