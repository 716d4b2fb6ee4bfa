import { CASE_FOLDING } from './case-folding-table.js';

/**
 * Every character that folding changes, as one class, so that a text is scanned once, natively.
 * They are letters and one combining mark: none has a meaning in a class to escape.
 */
const FOLDED = new RegExp(`[${[...CASE_FOLDING.keys()].join('')}]`, 'gu');

/**
 * Unicode's full case folding (not the Turkic one), which `toLowerCase` is not: "Straße" and
 * "STRASSE" both fold to "strasse", "ΟΔΥΣΣΕΥΣ" and "οδυσσευς" (final sigma) to "οδυσσευσ".
 */
export function foldCase(text: string): string {
  return text.replace(FOLDED, (character) => CASE_FOLDING.get(character) as string);
}
