import { hash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { send } from '@koa/send';
import type { Context, Middleware } from 'koa';
import views from 'koa-views';
import type { ServiceAppOptions } from './app.js';
import { CACHE_CONTROL } from './cache-control.js';
import type { ErrorBody } from './errors.js';
import { DOCS_CACHE, type JsonSchema } from './operations.js';
import { Router } from './routing.js';
import { kitFormatting } from './views.js';

const KIT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The kit's views (the API reference): they extend the service's `layout` and its `head` block. */
const KIT_VIEWS = join(KIT, 'views');
const PREFIX = '/assets/';

type Template = (locals: Record<string, unknown>) => string;

/**
 * The templates bin/compile-views.js compiled at build time (the service's as the module's
 * default export, the kit's as `kit`), as a koa-views engine: Pug (40 MB) is never loaded.
 */
function compiledEngine(viewsDir: string, compiledModule: string | undefined) {
  if (!compiledModule || !existsSync(compiledModule)) return undefined;
  let templates: Promise<Map<string, Template>> | undefined;
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
export function pages(
  root: string,
  document: JsonSchema,
  options: Pick<ServiceAppOptions, 'compiledViews' | 'formatting' | 'errorView' | 'cacheViews'>,
) {
  const { compiledViews, formatting, errorView, cacheViews = true } = options;
  const viewsDir = join(root, 'views');
  const files = assets([join(root, 'public'), join(KIT, 'public')]);
  const engine = compiledEngine(viewsDir, compiledViews && fileURLToPath(compiledViews));
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
  return {
    assets: files.middleware,
    /** `ctx.render` for a page request. */
    views: views(viewsDir, settings),
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

/** The files of `dirs` under /assets/, at URLs naming their version so as to be cached for good. */
function assets(dirs: readonly string[]) {
  const files = new Map<string, { dir: string; version: string }>();
  for (const dir of dirs) {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const other = files.get(entry.name);
      if (other) throw new Error(`${entry.name} is both in ${other.dir} and in ${dir}`);
      const version = hash('sha1', readFileSync(join(dir, entry.name)), 'base64url').slice(0, 12);
      files.set(entry.name, { dir, version });
    }
  }
  const middleware: Middleware = async (ctx, next) => {
    const name = ctx.path.slice(PREFIX.length);
    const file = ctx.path.startsWith(PREFIX) ? files.get(name) : undefined;
    if (file === undefined || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const versioned = ctx.query.v === file.version;
    ctx.set('Cache-Control', versioned ? CACHE_CONTROL.immutable : CACHE_CONTROL.revalidate);
    await send(ctx, name, { root: file.dir });
    ctx.set('ETag', `W/"${file.version}"`); // the hash its URL names
  };
  const url = (name: string): string => {
    const file = files.get(name);
    if (!file) throw new Error(`No asset named ${name} in ${dirs.join(' or ')}`);
    return `${PREFIX}${name}?v=${file.version}`;
  };
  return { url, middleware };
}
