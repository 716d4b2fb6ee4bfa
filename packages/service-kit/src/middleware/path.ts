// Hand-written: no maintained Koa middleware normalizes only the unreserved percent-escapes
// (koa-normalize-path and the like decode everything or redirect).
import type { Middleware } from 'koa';
import type { Preconditions } from '../preconditions.js';

/** What the kit's middleware tells those after it about the request, on `ctx.state`. */
export interface KitState {
  /** Whether the path is one of the JSON paths: its errors are JSON, it meets the API's routes. */
  jsonPath: boolean;
  /** The request's id (`X-Request-Id`). */
  requestId: string;
  /** Its If-Match, If-None-Match and date preconditions, read on first use. */
  preconditions?: Preconditions;
  /** Set when a route judged them: the answer's finish does not judge them again. */
  preconditionsJudged?: boolean;
}

/** A percent-escape, and the characters RFC 3986 calls unreserved. */
const ESCAPE = /%[0-9A-Fa-f]{2}/g;
const UNRESERVED = /^[A-Za-z0-9._~-]$/;

/**
 * The path with each percent-encoded unreserved character as the plain one (RFC 3986 section
 * 6.2.2.2): `/api/games/%74op-rated` is `/api/games/top-rated`. Every other escape (`%2F`,
 * `%20`, `%E2%82%AC`) is left as it is, for the routes to decode.
 */
export function normalizedPath(path: string): string {
  if (!path.includes('%')) return path;
  return path.replace(ESCAPE, (encoded) => {
    const character = String.fromCharCode(Number.parseInt(encoded.slice(1), 16));
    return UNRESERVED.test(character) ? character : encoded;
  });
}

/**
 * Before anything reads the path: gives it its normal form (every later middleware sees
 * `%74op-rated` as `top-rated`) and decides, once, whether it is a JSON path (`state.jsonPath`).
 */
export function path(isJsonPath: (path: string) => boolean): Middleware<KitState> {
  return (ctx, next) => {
    const normal = normalizedPath(ctx.path);
    if (normal !== ctx.path) ctx.path = normal;
    ctx.state.jsonPath = isJsonPath(normal);
    return next();
  };
}
