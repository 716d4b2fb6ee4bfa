import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { send } from '@koa/send';
import type { Middleware } from 'koa';

const PREFIX = '/assets/';
const IMMUTABLE = 'public, max-age=31536000, immutable';

export interface Assets {
  /** The URL of an asset, carrying its content hash so that it can be cached for good. */
  url(name: string): string;
  /** Serves the files under /assets/: for good when the URL names the current version. */
  middleware: Middleware;
}

/** The files of `dir`, served by @koa/send under /assets/; their versions are hashed once at start. */
export function assets(dir: string): Assets {
  const versions = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const hash = createHash('sha1').update(readFileSync(join(dir, entry.name)));
    versions.set(entry.name, hash.digest('base64url').slice(0, 12));
  }
  return {
    url(name) {
      const version = versions.get(name);
      if (!version) throw new Error(`No asset named ${name} in ${dir}`);
      return `${PREFIX}${name}?v=${version}`;
    },
    middleware: async (ctx, next) => {
      if (!ctx.path.startsWith(PREFIX) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
        return next();
      }
      const name = ctx.path.slice(PREFIX.length);
      const version = versions.get(name);
      if (version === undefined) return next();
      ctx.set('Cache-Control', ctx.query.v === version ? IMMUTABLE : 'no-cache');
      await send(ctx, name, { root: dir });
    },
  };
}
