// Hand-written: no maintained Koa middleware normalizes only the unreserved percent-escapes
// (koa-normalize-path and the like decode everything or redirect).
import KoaRouter, { type RouterOptions } from '@koa/router';
import type { Middleware } from 'koa';

/**
 * @koa/router with the kit's rule for paths: a route matches its path in exactly its case, as
 * the JSON-path check (`jsonPaths`) and the document read it, so `/API/games/1` is no route.
 */
export class Router extends KoaRouter {
  constructor(options: RouterOptions = {}) {
    super({ sensitive: true, ...options });
  }
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

/** Rewrites the request's path to `normalizedPath` before anything reads it, routing included. */
export const normalizePath: Middleware = (ctx, next) => {
  const { path } = ctx;
  const normal = normalizedPath(path);
  if (normal !== path) ctx.path = normal;
  return next();
};
