import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

type Template = (locals: Record<string, unknown>) => string;

/**
 * The templates bin/compile-views.js compiled at build time (the service's as the module's
 * default export, the kit's as `kit`), as a koa-views engine: Pug (40 MB) is never loaded.
 */
export function compiledEngine(
  viewsDir: string,
  kitViewsDir: string,
  compiledModule: string | undefined,
) {
  if (!compiledModule || !existsSync(compiledModule)) return undefined;
  let templates: Promise<Map<string, Template>> | undefined;
  const byFile = (dir: string, compiled: Record<string, Template>) =>
    Object.entries(compiled).map(([name, template]) => [join(dir, name), template] as const);
  return async (file: string, locals: Record<string, unknown>): Promise<string> => {
    templates ??= import(pathToFileURL(compiledModule).href).then(
      (module: { default: Record<string, Template>; kit: Record<string, Template> }) =>
        new Map([...byFile(viewsDir, module.default), ...byFile(kitViewsDir, module.kit)]),
    );
    const template = (await templates).get(file);
    if (!template) throw new Error(`${compiledModule} has no template for ${file}`);
    return template(locals);
  };
}
