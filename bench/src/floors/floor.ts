// What every same-work floor is made of: a route pattern and its work, the service's compiled
// domain code and templates (from dist/, written by `make build`), never its app or routes.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'koa';
import { repoRoot, type ServiceName } from '../process.js';
import type { Captured } from '../servers/captured.js';

export interface Floor {
  /** The route's pattern, as the service declares it. */
  path: string;
  /** The route's work and nothing else: it sets the body (and a header the work yields). */
  handle: (ctx: Context) => void | Promise<void>;
}

/** The floors of one service, by name; `captured` is the service's answer to the route. */
export type FloorSet = (captured: Captured) => Promise<Record<string, Floor>>;

/** A module of a service's compiled JavaScript (`dist/<file>`), typed by the caller. */
export async function fromDist<T>(service: ServiceName, file: string): Promise<T> {
  const path = join(repoRoot, service, 'dist', file);
  if (!existsSync(path)) throw new Error(`${path} is missing: run make build first`);
  return (await import(pathToFileURL(path).href)) as T;
}

type Template = (locals: Record<string, unknown>) => string;

/**
 * Renders a service's compiled templates (dist/views.js, written by the kit's compile-views)
 * with the locals its pages get: the page's own, `path`, the service's formatting helpers as
 * `format`, and `asset`. The asset URLs carry a content hash that the kit works out at start;
 * they are read from the service's captured page, so that the floor's page is the service's,
 * byte for byte.
 */
export async function pageRenderer(service: ServiceName, captured: Captured) {
  const { default: templates } = await fromDist<{ default: Record<string, Template> }>(
    service,
    'views.js',
  );
  const { formatting } = await fromDist<{ formatting: Record<string, unknown> }>(
    service,
    'view-helpers.js',
  );
  const assetUrls = new Map(
    [...captured.body.toString().matchAll(/\/assets\/([\w.-]+)\?v=[\w-]+/g)].map((match) => [
      match[1],
      match[0],
    ]),
  );
  const asset = (name: string) => {
    const url = assetUrls.get(name);
    if (!url) throw new Error(`the captured page links no asset named ${name}`);
    return url;
  };
  return (ctx: Context, view: string, locals: Record<string, unknown>) => {
    const template = templates[`${view}.pug`];
    if (!template) throw new Error(`${service}/dist/views.js has no ${view}.pug`);
    ctx.body = template({ asset, path: ctx.path, format: formatting, ...locals });
  };
}

/** The JSON answer: serialized here, as the service serializes it. */
export function sendJson(ctx: Context, value: unknown): void {
  ctx.body = JSON.stringify(value);
}
