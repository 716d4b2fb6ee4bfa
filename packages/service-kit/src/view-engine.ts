import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The kit's views (the API reference): they extend the service's `layout` and its `head` block. */
export const KIT_VIEWS = join(dirname(fileURLToPath(import.meta.url)), '..', 'views');

type Template = (locals: Record<string, unknown>) => string;

/** A kit view's name in a compiled views module, beside the service's own. */
const KIT_PREFIX = 'service-kit/';

/** The templates compiled at build time, a koa-views engine: Pug (40 MB) is never loaded. */
export function compiledEngine(viewsDir: string, compiledModule: string | undefined) {
  if (!compiledModule || !existsSync(compiledModule)) return undefined;
  // koa-views names the template by its file: each key of the module, as the file it came from.
  const fileOf = (key: string) =>
    key.startsWith(KIT_PREFIX)
      ? join(KIT_VIEWS, key.slice(KIT_PREFIX.length))
      : join(viewsDir, key);
  let templates: Promise<Map<string, Template>> | undefined;
  return async (file: string, locals: Record<string, unknown>): Promise<string> => {
    templates ??= import(pathToFileURL(compiledModule).href).then(
      ({ default: compiled }: { default: Record<string, Template> }) =>
        new Map(Object.entries(compiled).map(([key, template]) => [fileOf(key), template])),
    );
    const template = (await templates).get(file);
    if (!template) throw new Error(`${compiledModule} has no template for ${file}`);
    return template(locals);
  };
}

/** The service's templates (not its folders of partials) and the kit's as one ES module. */
export async function compileViews(viewsDir: string, outFile: string): Promise<number> {
  const { default: pug } = await import('pug');
  const options = { basedir: viewsDir, compileDebug: false, name: 'template' };
  const templates = (dir: string) =>
    readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.pug'))
      .map((entry) => entry.name);
  const entries = [
    ...templates(viewsDir).map((name) => [name, join(viewsDir, name)]),
    ...templates(KIT_VIEWS).map((name) => [KIT_PREFIX + name, join(KIT_VIEWS, name)]),
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
