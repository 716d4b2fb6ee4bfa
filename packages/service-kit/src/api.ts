import { type HealthOptions, healthOperations } from './health.js';
import {
  type ApiInfo,
  DOCS_CACHE,
  DOCUMENT_PATH,
  type Operation,
  openApiDocument,
} from './operations.js';

export type Api = ReturnType<typeof describeApi>;

/**
 * The operations of a JSON API, then the probes (`/healthz` reporting `health`: see
 * README.md), then the document's own, and their OpenAPI document.
 */
export function describeApi(
  info: ApiInfo,
  operations: readonly Operation[],
  health?: HealthOptions,
) {
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
  const all = [...operations, ...(health ? healthOperations(health) : []), self];
  const document = openApiDocument(info, all);
  return { document, operations: all };
}
