import type { Operation } from './operations.js';

export const PAGING_HEADERS = {
  total: 'X-Total-Count',
  totalRelation: 'X-Total-Count-Relation',
  link: 'Link',
} as const;

/** What a success says of the resource it carries: an error answer drops them. */
const RESOURCE_HEADERS = ['ETag', 'Location', ...Object.values(PAGING_HEADERS)];

const ERROR_HEADERS = ['Retry-After', 'WWW-Authenticate'];

export const EXPOSED_HEADERS = ['X-Request-Id', ...RESOURCE_HEADERS, ...ERROR_HEADERS];

/** An error drops these: the resource's, an earlier error's, the success's caching and encoding. */
export const DISCARDED_ON_ERROR = [
  ...RESOURCE_HEADERS,
  ...ERROR_HEADERS,
  'Cache-Control',
  'Content-Encoding',
  'Last-Modified',
];

/** The request headers the operations read, for a CORS preflight to allow, in one order. */
export function requestHeadersOf(operations: readonly Operation[]): string[] {
  const names = new Set(['X-Request-Id']);
  for (const op of operations) {
    if (op.method === 'get') names.add('If-None-Match');
    if (op.bearerAuth) names.add('Authorization');
    if (op.requestBody) names.add('Content-Type');
    for (const parameter of op.parameters ?? []) {
      if (parameter.in === 'header') names.add(parameter.name);
    }
  }
  return [...names].sort();
}
