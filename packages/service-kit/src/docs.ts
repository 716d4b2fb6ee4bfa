import type { Context } from 'koa';
import { CACHE_CONTROL } from './cache-control.js';
import { type ApiInfo, type JsonSchema, type Operation, openApiDocument } from './operations.js';
import { Router } from './routing.js';

/** The document and its page change only with a new release of the service. */
const DOCS_CACHE = CACHE_CONTROL.stable;

export type Api = ReturnType<typeof describeApi>;

export const DOCUMENT_PATH = '/openapi.json';

/** The operations of a JSON API, then the document's own, and their OpenAPI document. */
export function describeApi(info: ApiInfo, operations: readonly Operation[]) {
  const self: Operation = {
    id: 'openApiDocument',
    method: 'get',
    path: DOCUMENT_PATH,
    summary: 'This document (OpenAPI 3.1)',
    responses: { 200: { description: 'The OpenAPI document', schema: { type: 'object' } } },
    errors: [],
    handler: (ctx) => {
      ctx.set('Cache-Control', DOCS_CACHE);
      ctx.body = document;
    },
  };
  const all = [...operations, self];
  const document = openApiDocument(info, all);
  return { document, operations: all };
}

/** GET /docs: the API reference, a kit view rendered in the service's layout (see pages.ts). */
export function docsPage(
  document: JsonSchema,
  renderKitView: (ctx: Context, view: string, locals: Record<string, unknown>) => Promise<void>,
): Router {
  return new Router().get('/docs', async (ctx) => {
    ctx.set('Cache-Control', DOCS_CACHE);
    await renderKitView(ctx, 'docs.pug', { title: 'API reference', api: document });
  });
}
