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

/**
 * Text with no visible character: only White_Space and Default_Ignorable_Code_Point characters,
 * which trimming alone does not remove. Refused like an empty text.
 */
export const INVISIBLE_TEXT: readonly string[] = [
  '\u200B', // zero width space
  '\u200B\u200D\u200C', // with a joiner and a non-joiner
  '\u2060\u2063', // word joiner, invisible separator
  '\u00AD', // soft hyphen
  '\u034F', // combining grapheme joiner
  '\u180E', // Mongolian vowel separator
  '\u200E\u200F\u202E', // direction marks and an override
  '\u3164', // Hangul filler
  '\u115F\u1160', // Hangul choseong and jungseong fillers
  '\uFE0F', // variation selector
  '\u{E0020}\u{E007F}', // tag characters
  '\uFEFF\u200B', // byte order mark (trimmed) and a zero width space
  '\u00A0\u200B\u3000', // no-break and ideographic spaces around a zero width space
];
