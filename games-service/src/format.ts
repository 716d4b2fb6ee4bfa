import { coverAlt, coverVersion } from './catalogue/cover.js';
import type { Game } from './catalogue/game.js';

/** The URL of a page at `path`; empty parameters and the first page are left out. */
export function pageUrl(path: string, params: Record<string, string | number | undefined>) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '' && !(name === 'page' && value === 1)) {
      query.set(name, String(value));
    }
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/** The URL of a search page. */
export const searchUrl = (params: { q?: string; genre?: string; sort?: string; page?: number }) =>
  pageUrl('/search', params);

/** Made once: `toLocaleString` builds a formatter at every call, several times a page. */
const number = new Intl.NumberFormat('en-US');

/** Formatting shared by every template, as `format`. */
export const format = {
  rating: (rating: number | null) =>
    rating === null ? 'Not yet rated' : `${rating.toFixed(1)} / 10`,
  count: (value: number) => number.format(value),
  /** The cover's URL names its version, so that it can be cached for good. */
  coverUrl: (game: Game) => `/games/${game.id}/cover.svg?v=${coverVersion(game)}`,
  coverAlt,
  /** Games of a later year than this one are announced, not out. */
  isReleased: (game: Game) => game.releaseYear <= new Date().getFullYear(),
  searchUrl,
  pageUrl,
  capitalized: (text: string) => text.charAt(0).toUpperCase() + text.slice(1),
  plural: (count: number, one: string, many: string) =>
    `${number.format(count)} ${count === 1 ? one : many}`,
};
