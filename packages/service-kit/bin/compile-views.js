#!/usr/bin/env node
// @ts-check
// compile-views VIEWS_DIR OUT_FILE: a service's Pug templates and the kit's as one module of
// functions, which src/pages.ts reads in place of Pug; run by each service's `npm run build`.
import { readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const KIT_VIEWS = fileURLToPath(new URL('../views', import.meta.url));

/**
 * Writes the service's templates (not its folders of partials) as the module's default export and
 * the kit's as its `kit` export, each keyed by file name; answers how many it wrote.
 * @param {string} viewsDir
 * @param {string} outFile
 * @returns {Promise<number>}
 */
export async function compileViews(viewsDir, outFile) {
  const { default: pug } = await import('pug');
  const options = { basedir: viewsDir, compileDebug: false, name: 'template' };
  /** @param {string} dir */
  const compiled = (dir) =>
    readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.pug'))
      .map(
        (entry) =>
          `  ${JSON.stringify(entry.name)}: (() => {\n${pug.compileFileClient(join(dir, entry.name), options)}\nreturn template;\n})(),`,
      );
  const service = compiled(viewsDir);
  const kit = compiled(KIT_VIEWS);
  writeFileSync(
    outFile,
    `// Compiled from ${relative(join(outFile, '..'), viewsDir)} by service-kit's compile-views: do not edit.\nexport default {\n${service.join('\n')}\n};\nexport const kit = {\n${kit.join('\n')}\n};\n`,
  );
  return service.length + kit.length;
}

const [script, viewsDir, outFile] = process.argv.slice(1);
// Run as a command (Node gives the module its real path), not imported by a test.
if (script && import.meta.url === pathToFileURL(realpathSync(script)).href) {
  if (!viewsDir || !outFile) {
    console.error('usage: compile-views VIEWS_DIR OUT_FILE');
    process.exit(2);
  }
  const count = await compileViews(resolve(viewsDir), resolve(outFile));
  console.log(`compile-views: ${count} templates -> ${outFile}`);
}
