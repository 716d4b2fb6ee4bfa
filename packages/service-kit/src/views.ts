import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from 'koa';
import pug from 'pug';

/** The views the kit brings (the API reference); they extend the service's own `layout`. */
export const KIT_VIEWS = join(dirname(fileURLToPath(import.meta.url)), '..', 'views');

/** Renders a Pug view (its path relative to the service's views) to a string. */
export function renderView(
  ctx: Context,
  view: string,
  locals: Record<string, unknown>,
): Promise<string> {
  // The file name with its extension spares koa-views a failing stat on every render.
  return ctx.render(`${view}.pug`, locals) as unknown as Promise<string>;
}

/**
 * Renders one of the kit's views, which extend the service's `layout` (found through `basedir`).
 * Pug directly: koa-views refuses a view outside the service's views folder.
 */
export function renderKitView(
  ctx: Context,
  view: string,
  serviceViews: string,
  locals: Record<string, unknown>,
): string {
  return pug.renderFile(join(KIT_VIEWS, `${view}.pug`), {
    ...ctx.state,
    ...locals,
    basedir: serviceViews,
    cache: true,
  });
}

/** Formatting the kit's views use, available to every template as `h`. */
export const kitHelpers = {
  /** A JSON Schema's type in a few words, for the API reference. */
  schemaType: (schema: {
    type?: unknown;
    enum?: unknown[];
    minimum?: number;
    maximum?: number;
  }) => {
    if (Array.isArray(schema.enum)) return `one of ${schema.enum.join(', ')}`;
    const type = Array.isArray(schema.type)
      ? schema.type.join(' or ')
      : String(schema.type ?? 'any');
    if (schema.minimum === undefined && schema.maximum === undefined) return type;
    return `${type}, ${schema.minimum ?? '…'} to ${schema.maximum ?? '…'}`;
  },
};
