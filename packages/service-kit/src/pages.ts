import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Koa from 'koa';
import type { Context } from 'koa';
import views from 'koa-views';
import type { ErrorBody } from './errors.js';
import { compiledEngine, KIT_VIEWS } from './view-engine.js';
import { kitFormatting } from './views.js';

export interface PagesOptions {
  /** Pug compiles each template once (off while editing them). */
  cacheViews: boolean;
  viewsDir: string;
  /** The module of templates compiled at build time (see view-engine.ts); Pug itself without it. */
  compiledViews: string | undefined;
  /** The URL of an asset, with its version. */
  assetUrl: (name: string) => string;
  /** The service's formatting for its templates, beside the kit's. */
  formatting?: Record<string, unknown> | undefined;
  /** The file of the error page's view (`error.pug`); none: errors are JSON everywhere. */
  errorView?: string | undefined;
}

/** koa-views' `ctx.render`: renders a view (its file name, extension included) as the answer. */
type Render = Context['render'];

/**
 * Pages rendered by koa-views, as its README shows: `app.context.render` renders the service's
 * views as the answer (`await ctx.render('home.pug', locals)`), and a second koa-views renders
 * the kit's own (they extend the service's `layout`, found through Pug's `basedir`). Every
 * template has the locals `asset` (an asset's URL), `format` (the formatting helpers) and `path`
 * (the request's, from `ctx.state`).
 */
export function pages(
  app: Koa,
  { viewsDir, compiledViews, assetUrl, formatting, errorView, cacheViews }: PagesOptions,
) {
  const engine = compiledEngine(viewsDir, compiledViews);
  const settings = {
    ...(engine && { engineSource: { pug: engine } }),
    options: {
      basedir: viewsDir,
      cache: cacheViews,
      asset: assetUrl,
      format: { ...kitFormatting, ...formatting },
    },
  };
  // Called without a context, koa-views answers the render function for app.context.
  const viewsRender = (root: string) => (views(root, settings) as unknown as () => Render)();
  app.context.render = viewsRender(viewsDir);
  const kitRender = viewsRender(KIT_VIEWS);
  return {
    /** Renders one of the kit's views (its file name) in the service's layout, as the answer. */
    renderKitView: (ctx: Context, view: string, locals: Record<string, unknown>) =>
      kitRender.call(ctx, view, locals),
    /** The error page in the site's layout, when there is one. */
    renderError:
      errorView === undefined
        ? undefined
        : async (ctx: Context, error: ErrorBody) => {
            // The request may have failed before its path was given to the templates.
            await ctx.render(errorView, {
              path: ctx.path,
              title: error.status === 404 ? 'Not found' : 'Error',
              error,
            });
            return ctx.body as string;
          },
  };
}

/** The kit's own assets (the API reference's stylesheet), served beside the service's. */
export const KIT_PUBLIC = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');
