import { FOLDS_AFTER_LOWERING } from './case-folding.generated.js';

/**
 * The characters that still fold once `toLowerCase` has lowered a text: ß, final ς, ligatures,
 * lower-case Cherokee (which folds to its capitals)... `toLowerCase`, native and fast, does the
 * rest as the fold would (a test checks every code point), so a title's capitals call no function.
 */
const STILL_TO_FOLD = new RegExp(`[${[...FOLDS_AFTER_LOWERING.keys()].join('')}]`, 'gu');

/**
 * Unicode's full case folding (not the Turkic one), which `toLowerCase` is not: "Straße" and
 * "STRASSE" both fold to "strasse", "ΟΔΥΣΣΕΥΣ" and "οδυσσευς" (final sigma) to "οδυσσευσ".
 */
export function foldCase(text: string): string {
  return text
    .toLowerCase()
    .replace(STILL_TO_FOLD, (character) => FOLDS_AFTER_LOWERING.get(character) as string);
}
