import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Koa from 'koa';
import type { Context, Middleware } from 'koa';
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
  /** The view of the error page; none: errors are JSON everywhere. */
  errorView?: string | undefined;
}

/** Renders a view to a string: koa-views' `ctx.render`, which answers the HTML when autoRender is off. */
type Render = (this: Context, view: string, locals?: Record<string, unknown>) => Promise<string>;

/**
 * Pages rendered by koa-views, as its README shows: `app.context.render` renders the service's
 * views, and a second koa-views renders the kit's own (they extend the service's `layout`, found
 * through Pug's `basedir`). Every template has the locals `asset` (an asset's URL), `format`
 * (the formatting helpers) and `path` (the request's).
 */
export function pages(
  app: Koa,
  { viewsDir, compiledViews, assetUrl, formatting, errorView, cacheViews }: PagesOptions,
) {
  const engine = compiledEngine(viewsDir, compiledViews);
  const settings = {
    extension: 'pug',
    autoRender: false,
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
  app.context.render = viewsRender(viewsDir) as unknown as Koa.ExtendableContext['render'];
  const kitRender = viewsRender(KIT_VIEWS);
  return {
    /** Gives every request for a page (`isPage`) its path, as the templates' `path`. */
    middleware:
      (isPage: (ctx: Context) => boolean): Middleware =>
      (ctx, next) => {
        if (isPage(ctx)) ctx.state.path = ctx.path;
        return next();
      },
    /** Renders one of the kit's views in the service's layout. */
    renderKitView: (ctx: Context, view: string, locals: Record<string, unknown>) =>
      kitRender.call(ctx, `${view}.pug`, { path: ctx.path, ...locals }),
    /** The error page in the site's layout, when there is one. */
    renderError:
      errorView === undefined
        ? undefined
        : (ctx: Context, error: ErrorBody) =>
            // The request may have failed before the middleware that sets `path` ran.
            renderView(ctx, errorView, {
              path: ctx.path,
              title: error.status === 404 ? 'Not found' : 'Error',
              error,
            }),
  };
}

/** The kit's own assets (the API reference's stylesheet), served beside the service's. */
export const KIT_PUBLIC = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');

/** Renders a Pug view (its path relative to the service's views) to a string. */
export function renderView(
  ctx: Context,
  view: string,
  locals: Record<string, unknown>,
): Promise<string> {
  // The file name with its extension spares koa-views a failing stat on every render.
  return ctx.render(`${view}.pug`, locals) as unknown as Promise<string>;
}
