import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Middleware } from 'koa';
import compose from 'koa-compose';
import views from 'koa-views';
import { assets } from './assets.js';
import { compiledEngine } from './compiled-views.js';
import type { ErrorBody } from './errors.js';
import { kitFormatting } from './formatting.js';
import { DOCS_CACHE, type JsonSchema } from './operations.js';
import { Router } from './routing.js';

const KIT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The kit's views (the API reference): they extend the service's `layout` and its `head` block. */
const KIT_VIEWS = join(KIT, 'views');

/** How a service's pages are made. */
export interface PagesOptions {
  /** The error page's view (`error.pug`), for requests outside the JSON paths; JSON errors without it. */
  errorView?: string;
  /** The templates' `format`, beside the kit's helpers. */
  formatting?: Record<string, unknown>;
  cacheViews?: boolean;
  /** The module `compile-views` wrote at build time; without it, Pug compiles the templates. */
  compiledViews?: URL;
}

/**
 * Pages rendered by koa-views, as its README shows: its middleware gives each page request
 * `ctx.render`; the kit's views and the error page (which a request may need before it reaches
 * the pages) get a render of their own. None is kept on `app.context`: koa-views' render there
 * answers the context of its latest call, so two requests rendering at once would swap pages.
 */
export function pages(root: string, document: JsonSchema, options: PagesOptions) {
  const { compiledViews, formatting, errorView, cacheViews = true } = options;
  const viewsDir = join(root, 'views');
  const files = assets([join(root, 'public'), join(KIT, 'public')]);
  const engine = compiledEngine(viewsDir, KIT_VIEWS, compiledViews && fileURLToPath(compiledViews));
  const settings = {
    ...(engine && { engineSource: { pug: engine } }),
    options: {
      basedir: viewsDir,
      cache: cacheViews,
      asset: files.url,
      format: { ...kitFormatting, ...formatting },
    },
  };
  // Called without a context, koa-views answers a render function of its own (for app.context).
  const renderOf =
    (root: string) => (ctx: Context, view: string, locals: Record<string, unknown>) =>
      (views(root, settings) as unknown as () => Context['render'])().call(ctx, view, locals);
  const renderServiceView = renderOf(viewsDir);
  const renderKitView = renderOf(KIT_VIEWS);
  const templatesPath: Middleware = (ctx, next) => {
    ctx.state.path = ctx.path; // the templates' `path`
    return next();
  };
  return {
    /** Before the page routes: the assets, then `ctx.render` and the templates' `path`. */
    middleware: compose([files.middleware, views(viewsDir, settings), templatesPath]),
    /** GET /docs: the API reference, a kit view in the service's layout. */
    docs: new Router().get('/docs', async (ctx) => {
      ctx.set('Cache-Control', DOCS_CACHE);
      await renderKitView(ctx, 'docs.pug', { title: 'API reference', api: document });
    }),
    renderError:
      errorView === undefined
        ? undefined
        : async (ctx: Context, error: ErrorBody) => {
            // The request may have failed before its path was given to the templates.
            await renderServiceView(ctx, errorView, {
              path: ctx.path,
              title: error.status === 404 ? 'Not found' : 'Error',
              error,
            });
            return ctx.body as string;
          },
  };
}
