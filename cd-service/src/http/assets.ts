import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Middleware } from 'koa';
import { type Prepared, prepare, sendPrepared } from './respond.js';

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};
const IMMUTABLE = 'public, max-age=31536000, immutable';

export interface Assets {
  /** The URL of an asset, carrying its content hash so that it can be cached for good. */
  url(name: string): string;
  middleware(): Middleware;
}

/** The files of `dir`, read once at start and served from memory under /assets/. */
export function loadAssets(dir: string): Assets {
  const files = new Map<string, Prepared>();
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    if (type) files.set(name, prepare(readFileSync(join(dir, name)), type));
  }
  const version = (file: Prepared) => file.etag.slice(1, 13);
  return {
    url(name) {
      const file = files.get(name);
      if (!file) throw new Error(`No asset named ${name}`);
      return `/assets/${name}?v=${version(file)}`;
    },
    middleware() {
      return async (ctx, next) => {
        if (!ctx.path.startsWith('/assets/') || !['GET', 'HEAD'].includes(ctx.method)) {
          return next();
        }
        const file = files.get(ctx.path.slice('/assets/'.length));
        if (!file) return next();
        const current = ctx.query.v === version(file);
        sendPrepared(ctx, file, current ? IMMUTABLE : 'no-cache');
      };
    },
  };
}
