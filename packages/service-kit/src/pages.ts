import type { Context, Middleware } from 'koa';
import type { ErrorBody } from './errors.js';
import type { RenderFile } from './view-engine.js';
import { kitFormatting, renderView } from './views.js';

export interface PagesOptions {
  viewsDir: string;
  renderFile: RenderFile;
  /** The URL of an asset, with its version. */
  assetUrl: (name: string) => string;
  /** The service's formatting for its templates, beside the kit's. */
  formatting?: Record<string, unknown> | undefined;
  /** The view of the error page; none: errors are JSON everywhere. */
  errorView?: string | undefined;
}

/**
 * Pages rendered by koa-views: `ctx.render` (see renderView) and the locals every template has:
 * `asset` (an asset's URL), `path` (the request's) and `format` (the formatting helpers).
 */
export function pages({ viewsDir, renderFile, assetUrl, formatting, errorView }: PagesOptions) {
  const format = { ...kitFormatting, ...formatting };
  // koa-views is loaded with the first page: a JSON request never needs it.
  let installRender: Middleware | undefined;
  const loadViews = async () => {
    const { default: views } = await import('koa-views');
    installRender = views(viewsDir, {
      extension: 'pug',
      autoRender: false,
      engineSource: { pug: renderFile },
    });
  };
  const noop = async () => {};
  /** What a page's templates need: `ctx.render` and the locals. */
  const prepare = async (ctx: Context) => {
    if (!installRender) await loadViews();
    ctx.state.asset = assetUrl;
    ctx.state.path = ctx.path;
    ctx.state.format = format;
    await installRender?.(ctx, noop);
  };
  return {
    /** Prepares every request for a page (`isPage`) to be rendered. */
    middleware:
      (isPage: (ctx: Context) => boolean): Middleware =>
      async (ctx, next) => {
        if (isPage(ctx)) await prepare(ctx);
        return next();
      },
    /** The error page in the site's layout, when there is one. */
    renderError:
      errorView === undefined
        ? undefined
        : async (ctx: Context, error: ErrorBody) => {
            // The request may have failed before the middleware that prepares pages ran.
            await prepare(ctx);
            return renderView(ctx, errorView, {
              title: error.status === 404 ? 'Not found' : 'Error',
              error,
            });
          },
  };
}
