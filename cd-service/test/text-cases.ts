/**
 * Text the CD schema accepts (well-formed, no control character, already trimmed) that a
 * store could easily change: characters outside the BMP, joiners, unnormalized forms, format
 * and bidirectional marks, noncharacters, private use. Every store must give each back exactly.
 */
export const UNUSUAL_TEXT: readonly string[] = [
  '𝄞'.repeat(200),
  'Ω'.repeat(200),
  '€'.repeat(200),
  '👩‍👩‍👧‍👦 🇵🇹 👍🏽 🏳️‍🌈',
  'Cafe\u0301 (decomposed)',
  'Café (composed)',
  '\u212Bngström (Angstrom sign)',
  '\u0301 leading combining mark',
  'Z\u0334\u0321\u031Ba\u0337l\u0336g\u0337o\u0336',
  'non\u00A0breaking, line\u2028separator, paragraph\u2029separator',
  'byte\uFEFForder mark, zero\u200Bwidth, joiner\u200Dand\u200Cnon-joiner',
  'marks \u200E\u200F embedded \u202Eoverride\u202C and \u2066isolate\u2069',
  'noncharacters \uFFFE \uFFFF \uFDD0 \u{1FFFE} \u{10FFFF}',
  'private \uE000 \u{F0000} \u{10FFFD}',
  'replacement \uFFFD character',
  'tag \u{E0041}\u{E007F} characters',
  'עברית والعربية',
  '日本語のアルバム 한국어 中文',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝟙𝟚𝟛',
  `O'Brien "quoted" \\ <b>&amp;</b> %_ * ? [x] {}`,
];

/** Text the CD schema refuses: a control character or an unpaired surrogate inside. */
export const REFUSED_TEXT: readonly string[] = [
  'x\u0000y',
  '\u0000',
  'tab\there',
  'line\nbreak',
  'carriage\rreturn',
  'escape\u001B[31m',
  'unit\u001Fseparator',
  'delete\u007F',
  'next\u0085line',
  'csi\u009B',
  'x\uD800y',
  'x\uDFFFy',
  'reversed \uDC00\uD800 pair',
  '𝄞'.slice(0, 1),
];
