import Router from '@koa/router';
import type { Context } from 'koa';
import { once } from '../cache.js';
import { type JsonSchema, mount, type Operation, openApiDocument } from '../http/operations.js';
import { prepare, prepareJson, sendPrepared } from '../http/respond.js';
import type { Logger } from '../log.js';
import { type CdStore, STORE_KINDS } from '../store/store.js';

const API_INFO = {
  title: 'CD Collection API',
  version: '1.0.0',
  description:
    'A CD collection to read and change. Lists are bare arrays; errors are `{"error", "status"}` objects.',
};

/** The document and its page change only with a new release of the service. */
const DOCS_CACHE = 'public, max-age=300';

const healthSchema = (status: string) => ({
  type: 'object',
  additionalProperties: false,
  required: ['status', 'store'],
  properties: { status: { const: status }, store: { enum: [...STORE_KINDS] } },
});

export function healthOperation(store: CdStore, logger: Logger): Operation {
  return {
    id: 'health',
    method: 'get',
    path: '/healthz',
    summary: 'Whether the service and its store answer',
    responses: {
      200: { description: 'The service and its store are up', schema: healthSchema('ok') },
      503: { description: 'The store does not answer', schema: healthSchema('unavailable') },
    },
    errors: [],
    handler: async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      try {
        await store.ping();
        ctx.body = { status: 'ok', store: store.kind };
      } catch (error) {
        logger.error('store does not answer', { store: store.kind, error: String(error) });
        ctx.status = 503;
        ctx.body = { status: 'unavailable', store: store.kind };
      }
    },
  };
}

/** Renders a Pug view to a string (koa-views runs with autoRender off). */
export function renderView(
  ctx: Context,
  view: string,
  locals: Record<string, unknown>,
): Promise<string> {
  // The file name with its extension spares koa-views a failing stat on every render.
  return ctx.render(`${view}.pug`, locals) as unknown as Promise<string>;
}

/** The OpenAPI document of the operations (itself included), served at /openapi.json and as the /docs page. */
export function docs(operations: readonly Operation[]): { document: JsonSchema; router: Router } {
  const json = once(() => prepareJson(document));
  const self: Operation = {
    id: 'openApiDocument',
    method: 'get',
    path: '/openapi.json',
    summary: 'This document (OpenAPI 3.1)',
    responses: { 200: { description: 'The OpenAPI document', schema: { type: 'object' } } },
    errors: [],
    handler: (ctx) => sendPrepared(ctx, json(), DOCS_CACHE),
  };
  const document = openApiDocument(API_INFO, [...operations, self]);
  const page = once(async (ctx: Context) =>
    prepare(
      await renderView(ctx, 'docs', { title: 'API reference', api: document }),
      'text/html; charset=utf-8',
    ),
  );
  const router = mount(new Router(), [self]).get('/docs', async (ctx) =>
    sendPrepared(ctx, await page(ctx), DOCS_CACHE),
  );
  return { document, router };
}
