import type { Operation } from './operations.js';

/** The headers that page a list (paging.ts sets them). */
export const PAGING_HEADERS = {
  total: 'X-Total-Count',
  totalRelation: 'X-Total-Count-Relation',
  link: 'Link',
} as const;

/** What a successful answer says of the resource it carries: an error answer drops them. */
const RESOURCE_HEADERS = ['ETag', 'Location', ...Object.values(PAGING_HEADERS)];

/** What an error answer adds: when to try again (503), how to authenticate (401). */
const ERROR_HEADERS = ['Retry-After', 'WWW-Authenticate'];

/** Every response header of an API answer that a script on another origin may need to read. */
export const EXPOSED_HEADERS = ['X-Request-Id', ...RESOURCE_HEADERS, ...ERROR_HEADERS];

/**
 * The headers of a failed answer that do not apply to its error: the resource's and an earlier
 * error's (the error sets its own again), and how the success was to be cached and encoded.
 */
export const DISCARDED_ON_ERROR = [
  ...RESOURCE_HEADERS,
  ...ERROR_HEADERS,
  'Cache-Control',
  'Content-Encoding',
  'Last-Modified',
];

/**
 * The request headers the operations read, which a CORS preflight may therefore allow; sorted,
 * so that the list is the same whatever order the operations come in.
 */
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
