import { CASE_FOLDING } from './case-folding-table.js';

/**
 * The characters that still fold once `toLowerCase` has lowered a text: ß, final ς, ligatures,
 * lower-case Cherokee (which folds to its capitals)... `toLowerCase`, native and fast, does the
 * rest as the table would (a test checks every code point), so the class is a small part of the
 * table and a title's capitals call no function.
 */
const FOLDS_AFTER_LOWERING = new RegExp(
  `[${[...CASE_FOLDING.keys()].filter((character) => character.toLowerCase() === character).join('')}]`,
  'gu',
);

/**
 * Unicode's full case folding (not the Turkic one), which `toLowerCase` is not: "Straße" and
 * "STRASSE" both fold to "strasse", "ΟΔΥΣΣΕΥΣ" and "οδυσσευς" (final sigma) to "οδυσσευσ".
 */
export function foldCase(text: string): string {
  return text
    .toLowerCase()
    .replace(FOLDS_AFTER_LOWERING, (character) => CASE_FOLDING.get(character) as string);
}
