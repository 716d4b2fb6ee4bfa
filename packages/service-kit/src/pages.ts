import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Context } from 'koa';
import views from 'koa-views';
import type { ErrorBody } from './errors.js';
import { kitFormatting } from './views.js';

const KIT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The kit's views (the API reference): they extend the service's `layout` and its `head` block. */
const KIT_VIEWS = join(KIT, 'views');
/** The kit's own assets (the API reference's stylesheet), served beside the service's. */
export const KIT_PUBLIC = join(KIT, 'public');

type Template = (locals: Record<string, unknown>) => string;

/**
 * The templates bin/compile-views.js compiled at build time (the service's as the module's
 * default export, the kit's as `kit`), as a koa-views engine: Pug (40 MB) is never loaded.
 */
function compiledEngine(viewsDir: string, compiledModule: string | undefined) {
  if (!compiledModule || !existsSync(compiledModule)) return undefined;
  let templates: Promise<Map<string, Template>> | undefined;
  // koa-views names the template by its file.
  const byFile = (dir: string, compiled: Record<string, Template>) =>
    Object.entries(compiled).map(([name, template]) => [join(dir, name), template] as const);
  return async (file: string, locals: Record<string, unknown>): Promise<string> => {
    templates ??= import(pathToFileURL(compiledModule).href).then(
      (module: { default: Record<string, Template>; kit: Record<string, Template> }) =>
        new Map([...byFile(viewsDir, module.default), ...byFile(KIT_VIEWS, module.kit)]),
    );
    const template = (await templates).get(file);
    if (!template) throw new Error(`${compiledModule} has no template for ${file}`);
    return template(locals);
  };
}

/**
 * Pages rendered by koa-views, as its README shows: its middleware gives each page request
 * `ctx.render`; the kit's views and the error page (which a request may need before it reaches
 * the pages) get a render of their own. None is kept on `app.context`: koa-views' render there
 * answers the context of its latest call, so two requests rendering at once would swap pages.
 */
export function pages({
  viewsDir,
  compiledViews,
  assetUrl,
  formatting,
  errorView,
  cacheViews,
}: {
  viewsDir: string;
  /** The module of templates compiled at build time; Pug itself without it. */
  compiledViews: string | undefined;
  /** The URL of an asset, with its version. */
  assetUrl: (name: string) => string;
  formatting: Record<string, unknown> | undefined;
  errorView: string | undefined;
  cacheViews: boolean;
}) {
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
  // Called without a context, koa-views answers a render function of its own (for app.context).
  const renderOf =
    (root: string) => (ctx: Context, view: string, locals: Record<string, unknown>) =>
      (views(root, settings) as unknown as () => Context['render'])().call(ctx, view, locals);
  const renderServiceView = renderOf(viewsDir);
  return {
    /** `ctx.render` for a page request: koa-views' middleware. */
    middleware: views(viewsDir, settings),
    /** Renders one of the kit's views (its file name) in the service's layout, as the answer. */
    renderKitView: renderOf(KIT_VIEWS),
    /** The error page in the site's layout, when there is one. */
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
