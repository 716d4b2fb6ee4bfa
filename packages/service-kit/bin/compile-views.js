#!/usr/bin/env node
// compile-views VIEWS_DIR OUT_FILE: a service's Pug templates as one module of functions (see
// src/view-engine.ts); run by each service's `npm run build` after the kit is built.
import { resolve } from 'node:path';
import { compileViews } from '../dist/view-engine.js';

const [viewsDir, outFile] = process.argv.slice(2);
if (!viewsDir || !outFile) {
  console.error('usage: compile-views VIEWS_DIR OUT_FILE');
  process.exit(2);
}
const count = await compileViews(resolve(viewsDir), resolve(outFile));
console.log(`compile-views: ${count} templates -> ${outFile}`);
