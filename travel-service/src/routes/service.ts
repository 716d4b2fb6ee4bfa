import Router from '@koa/router';
import type { Context } from 'koa';
import { once } from '../cache.js';
import { type JsonSchema, mount, type Operation, openApiDocument } from '../http/operations.js';
import { prepare, prepareJson, sendPrepared } from '../http/respond.js';
import { renderView } from './pages.js';

const API_INFO = {
  title: 'Trip Planner API',
  version: '1.0.0',
  description:
    'Read-only travel itineraries: one plan per destination, its activities with prices in US dollars, and the total. Lists are bare arrays; errors are `{"error", "status"}` objects.',
};

const healthSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'destinations'],
  properties: { status: { const: 'ok' }, destinations: { type: 'integer', minimum: 0 } },
};

export function healthOperation(destinationCount: number): Operation {
  return {
    id: 'health',
    method: 'get',
    path: '/healthz',
    summary: 'Whether the service is up',
    responses: { 200: { description: 'The service is up', schema: healthSchema } },
    errors: [],
    handler: (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { status: 'ok', destinations: destinationCount };
    },
  };
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
    handler: (ctx) => sendPrepared(ctx, json(), 'public, max-age=300'),
  };
  const document = openApiDocument(API_INFO, [...operations, self]);
  const page = once(async (ctx: Context) =>
    prepare(
      await renderView(ctx, 'docs', { title: 'API reference', api: document }),
      'text/html; charset=utf-8',
    ),
  );
  const router = mount(new Router(), [self]).get('/docs', async (ctx) =>
    sendPrepared(ctx, await page(ctx), 'public, max-age=300'),
  );
  return { document, router };
}
