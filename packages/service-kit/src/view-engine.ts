import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The views the kit brings (the API reference); they extend the service's own `layout`, which has a `head` block. */
export const KIT_VIEWS = join(dirname(fileURLToPath(import.meta.url)), '..', 'views');

/** Renders a template file (an absolute path) with its locals: an engine of koa-views' `engineSource`. */
export type RenderFile = (file: string, locals: Record<string, unknown>) => Promise<string>;
type Template = (locals: Record<string, unknown>) => string;

/** Where a kit view is kept in a compiled views module: beside the service's own. */
const kitKey = (view: string) => `service-kit/${view}.pug`;

/**
 * The templates of a service compiled at build time by `compileViews`, as a koa-views engine:
 * in production the Pug compiler (about 40 MB of memory) is never loaded. Undefined when the
 * module does not exist (running the sources): koa-views then renders with Pug itself.
 */
export function compiledEngine(
  viewsDir: string,
  compiledModule: string | undefined,
): RenderFile | undefined {
  if (!compiledModule || !existsSync(compiledModule)) return undefined;
  const keyOf = (file: string) =>
    file.startsWith(KIT_VIEWS)
      ? kitKey(relative(KIT_VIEWS, file).replace(/\.pug$/, ''))
      : relative(viewsDir, file);
  let templates: Promise<Record<string, Template>> | undefined;
  return async (file, locals) => {
    templates ??= import(pathToFileURL(compiledModule).href).then((module) => module.default);
    const template = (await templates)[keyOf(file)];
    if (!template) throw new Error(`${compiledModule} has no template for ${file}`);
    return template(locals);
  };
}

/** The page templates of a views folder: its .pug files but those that are only included. */
function pageTemplates(viewsDir: string): string[] {
  return readdirSync(viewsDir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.pug'))
    .map((entry) => entry.name);
}

/**
 * Compiles the service's page templates and the kit's own views (which extend the service's
 * layout) into one ES module of template functions, for `viewEngine` to load in production.
 */
export async function compileViews(viewsDir: string, outFile: string): Promise<number> {
  const { default: pug } = await import('pug');
  const options = { basedir: viewsDir, compileDebug: false, name: 'template' };
  const entries = [
    ...pageTemplates(viewsDir).map((name) => [name, join(viewsDir, name)]),
    ...readdirSync(KIT_VIEWS)
      .filter((name) => name.endsWith('.pug'))
      .map((name) => [kitKey(name.replace(/\.pug$/, '')), join(KIT_VIEWS, name)]),
  ];
  const lines = entries.map(
    ([key, file]) =>
      `  ${JSON.stringify(key)}: (() => {\n${pug.compileFileClient(file as string, options)}\nreturn template;\n})(),`,
  );
  writeFileSync(
    outFile,
    `// Compiled from ${relative(join(outFile, '..'), viewsDir)} by service-kit's compile-views: do not edit.\nexport default {\n${lines.join('\n')}\n};\n`,
  );
  return entries.length;
}
