import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { KIT_VIEWS } from './views.js';

/** Renders a template file (an absolute path) with its locals. */
export type RenderFile = (file: string, locals: Record<string, unknown>) => Promise<string>;
type Template = (locals: Record<string, unknown>) => string;

/** Where a kit view is kept in a compiled views module: beside the service's own. */
const kitKey = (view: string) => `service-kit/${view}.pug`;

/**
 * How the templates of a service are rendered: from the module `compileViews` wrote at build
 * time when it exists (compiled JavaScript in production: the Pug compiler, about 40 MB of
 * memory, is never loaded), else by Pug itself (the sources, while editing templates).
 */
export function viewEngine(
  viewsDir: string,
  compiledModule: string | undefined,
  cache: boolean,
): RenderFile {
  const keyOf = (file: string) =>
    file.startsWith(KIT_VIEWS)
      ? kitKey(relative(KIT_VIEWS, file).replace(/\.pug$/, ''))
      : relative(viewsDir, file);
  if (compiledModule && existsSync(compiledModule)) {
    let templates: Promise<Record<string, Template>> | undefined;
    return async (file, locals) => {
      templates ??= import(pathToFileURL(compiledModule).href).then((module) => module.default);
      const template = (await templates)[keyOf(file)];
      if (!template) throw new Error(`${compiledModule} has no template for ${file}`);
      return template(locals);
    };
  }
  return async (file, locals) => {
    const { default: pug } = await import('pug');
    return pug.renderFile(file, { ...locals, basedir: viewsDir, cache });
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
