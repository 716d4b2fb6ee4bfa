import { hash } from 'node:crypto';
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
      const version = hash('sha1', readFileSync(join(dir, entry.name)), 'base64url').slice(0, 12);
      files.set(entry.name, { dir, version });
    }
  }
  const middleware: Middleware = async (ctx, next) => {
    const name = ctx.path.slice(PREFIX.length);
    const file = ctx.path.startsWith(PREFIX) ? files.get(name) : undefined;
    if (file === undefined || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const versioned = ctx.query.v === file.version;
    ctx.set('Cache-Control', versioned ? CACHE_CONTROL.immutable : CACHE_CONTROL.revalidate);
    await send(ctx, name, { root: file.dir });
    ctx.set('ETag', `W/"${file.version}"`); // the hash its URL names
  };
  const url = (name: string): string => {
    const file = files.get(name);
    if (!file) throw new Error(`No asset named ${name} in ${dirs.join(' or ')}`);
    return `${PREFIX}${name}?v=${file.version}`;
  };
  return { url, middleware };
}
