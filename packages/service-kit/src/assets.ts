import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { send } from '@koa/send';
import type { Middleware } from 'koa';
import { CACHE_CONTROL } from './cache-control.js';

const PREFIX = '/assets/';

/** The files of `dirs` under /assets/, at URLs naming their version so as to be cached for good. */
export function assets(dirs: readonly string[]) {
  const files = new Map<string, { dir: string; version: string }>();
  for (const dir of dirs) {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const other = files.get(entry.name);
      if (other) throw new Error(`${entry.name} is both in ${other.dir} and in ${dir}`);
      const hash = createHash('sha1').update(readFileSync(join(dir, entry.name)));
      files.set(entry.name, { dir, version: hash.digest('base64url').slice(0, 12) });
    }
  }
  const middleware: Middleware = async (ctx, next) => {
    if (!ctx.path.startsWith(PREFIX) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
      return next();
    }
    const name = ctx.path.slice(PREFIX.length);
    const file = files.get(name);
    if (file === undefined) return next();
    ctx.set(
      'Cache-Control',
      ctx.query.v === file.version ? CACHE_CONTROL.immutable : CACHE_CONTROL.revalidate,
    );
    await send(ctx, name, { root: file.dir });
  };
  const url = (name: string): string => {
    const file = files.get(name);
    if (!file) throw new Error(`No asset named ${name} in ${dirs.join(' or ')}`);
    return `${PREFIX}${name}?v=${file.version}`;
  };
  return { url, middleware };
}
