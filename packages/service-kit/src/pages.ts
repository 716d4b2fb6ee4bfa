import { createRequire } from 'node:module';
import type { Context, Middleware } from 'koa';
import type { ErrorBody } from './errors.js';
import type { RenderFile } from './view-engine.js';
import { kitFormatting, renderView } from './views.js';

export interface PagesOptions {
  /** Templates stay where they are while the process runs (off while editing them). */
  cacheViews: boolean;
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
export function pages({
  viewsDir,
  renderFile,
  assetUrl,
  formatting,
  errorView,
  cacheViews,
}: PagesOptions) {
  const format = { ...kitFormatting, ...formatting };
  // koa-views is loaded with the first page: a JSON request never needs it.
  let installRender: Middleware | undefined;
  const loadViews = async () => {
    if (cacheViews) lookUpTemplatesOnce();
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

type GetPaths = (root: string, view: string, extension: string) => Promise<unknown>;

/**
 * koa-views finds the file of a template (get-paths: an fs.stat, and a second one when the name
 * lacks its extension) at every render, which cost a page more than rendering it. Templates do
 * not move while the process runs: get-paths, as koa-views requires it, remembers each lookup
 * that succeeded. Run before koa-views is first loaded; once per process.
 */
function lookUpTemplatesOnce(): void {
  const fromViews = createRequire(createRequire(import.meta.url).resolve('koa-views'));
  const id = fromViews.resolve('get-paths');
  const getPaths = fromViews(id) as GetPaths & { remembers?: true };
  if (getPaths.remembers) return;
  const found = new Map<string, Promise<unknown>>();
  const remembering = Object.assign(
    (root: string, view: string, extension: string) => {
      const key = `${root}\0${view}\0${extension}`;
      let paths = found.get(key);
      if (!paths) {
        paths = getPaths(root, view, extension);
        found.set(key, paths);
        paths.catch(() => found.delete(key));
      }
      return paths;
    },
    { remembers: true as const },
  );
  (fromViews.cache[id] as NodeJS.Module).exports = remembering;
}
