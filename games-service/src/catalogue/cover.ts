import { createHash } from 'node:crypto';
import type { Game } from './game.js';

export const COVER_WIDTH = 300;
export const COVER_HEIGHT = 400;
const LINE_LENGTH = 16;
const MAX_LINES = 4;

/** Dark enough for white text on them (and on their darker gradient end) to read well. */
const GENRE_COLOURS: Readonly<Record<string, string>> = {
  action: '#b3261e',
  adventure: '#1f7a4d',
  fighting: '#a4420f',
  horror: '#4a1c3f',
  platformer: '#1c5fb0',
  puzzle: '#6a3fb5',
  racing: '#b0126e',
  rpg: '#5b3a8c',
  shooter: '#3d4a56',
  simulation: '#0f6e75',
  sports: '#2e7d1f',
  strategy: '#7a5a12',
};

/** The cover colour of a genre (case-insensitive): from a fixed palette, else from a hash. */
export function genreColour(genre: string): string {
  const key = genre.trim().toLowerCase();
  return GENRE_COLOURS[key] ?? hslToHex(fnv1a(key) % 360, 0.55, 0.35);
}

/** A deterministic SVG cover made from the game alone: no fonts, images or scripts fetched. */
export function coverSvg(game: Game): string {
  const colour = genreColour(game.genre);
  const id = `cover-${game.id}`;
  const lines = wrapTitle(game.title);
  const lineHeight = 34;
  const top = 205 - ((lines.length - 1) * lineHeight) / 2;
  const title = lines
    .map((line, i) => `<tspan x="150" y="${top + i * lineHeight}">${escapeXml(line)}</tspan>`)
    .join('');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${COVER_WIDTH} ${COVER_HEIGHT}"`,
    ` width="${COVER_WIDTH}" height="${COVER_HEIGHT}" role="img" aria-labelledby="${id}-title">`,
    `<title id="${id}-title">${escapeXml(game.title)}</title>`,
    `<defs><linearGradient id="${id}-bg" x1="0" y1="0" x2="0.4" y2="1">`,
    `<stop offset="0" stop-color="${colour}"/>`,
    `<stop offset="1" stop-color="${darken(colour, 0.55)}"/>`,
    '</linearGradient></defs>',
    `<rect width="${COVER_WIDTH}" height="${COVER_HEIGHT}" fill="url(#${id}-bg)"/>`,
    '<rect x="16" y="16" width="268" height="368" rx="10" fill="none"',
    ' stroke="#ffffff" stroke-opacity="0.35" stroke-width="2"/>',
    '<g fill="#ffffff" font-family="system-ui, sans-serif" text-anchor="middle">',
    `<text x="150" y="62" font-size="16" letter-spacing="3">${escapeXml(game.genre.toUpperCase())}</text>`,
    `<text font-size="24" font-weight="700">${title}</text>`,
    `<text x="150" y="356" font-size="20" fill-opacity="0.85">${game.releaseYear}</text>`,
    '</g></svg>',
  ].join('');
}

const versions = new WeakMap<Game, string>();

/** A short hash of the game's cover: it changes when, and only when, the cover does. */
export function coverVersion(game: Game): string {
  let version = versions.get(game);
  if (version === undefined) {
    version = createHash('sha1').update(coverSvg(game)).digest('base64url').slice(0, 12);
    versions.set(game, version);
  }
  return version;
}

/** What the cover shows, in words: its alt text. */
export const coverAlt = (game: Game) =>
  `Cover of ${game.title} (${game.genre}, ${game.releaseYear})`;

/**
 * Greedy wrap onto lines of at most LINE_LENGTH characters, words longer than a line cut;
 * past MAX_LINES the last line ends with an ellipsis.
 */
export function wrapTitle(title: string): string[] {
  const lines: string[] = [];
  let line: string[] = [];
  for (const word of title.trim().split(/\s+/u)) {
    let chars = Array.from(word);
    if (line.length > 0 && line.length + 1 + chars.length > LINE_LENGTH) {
      lines.push(line.join(''));
      line = [];
    }
    if (line.length > 0) line.push(' ');
    while (line.length + chars.length > LINE_LENGTH) {
      const room = LINE_LENGTH - line.length;
      lines.push([...line, ...chars.slice(0, room)].join(''));
      line = [];
      chars = chars.slice(room);
    }
    line.push(...chars);
  }
  if (line.length > 0) lines.push(line.join(''));
  if (lines.length <= MAX_LINES) return lines;
  // What is left is longer than a line: cut it after the last word that fits beside the "…".
  const rest = Array.from(lines.slice(MAX_LINES - 1).join(' '));
  let cut = rest.slice(0, LINE_LENGTH - 1).join('');
  if (rest[LINE_LENGTH - 1] !== ' ' && cut.includes(' ')) cut = cut.slice(0, cut.lastIndexOf(' '));
  const last = `${cut.trimEnd()}…`;
  return [...lines.slice(0, MAX_LINES - 1), last];
}

/** Escapes the five XML specials and drops characters XML 1.0 does not allow at all. */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/[&<>"']/g, (char) => ENTITIES[char] as string);
}

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** 32-bit FNV-1a over UTF-16 units: tiny, stable across runs and machines. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

function hslToHex(hue: number, saturation: number, lightness: number): string {
  const a = saturation * Math.min(lightness, 1 - lightness);
  const channel = (n: number) => {
    const k = (n + hue / 30) % 12;
    return lightness - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return toHex([channel(0), channel(8), channel(4)]);
}

function darken(hex: string, factor: number): string {
  const channels = [1, 3, 5].map((i) => (Number.parseInt(hex.slice(i, i + 2), 16) / 255) * factor);
  return toHex(channels);
}

const toHex = (channels: number[]) =>
  `#${channels
    .map((c) =>
      Math.round(c * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
