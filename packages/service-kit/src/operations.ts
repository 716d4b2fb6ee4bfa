import type { Middleware } from 'koa';
import { CACHE_CONTROL } from './cache-control.js';
import { errorBodySchema } from './errors.js';

export type JsonSchema = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  description: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface SuccessResponse {
  description: string;
  schema?: JsonSchema;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
}

/** One route of a JSON API: what it does for the router and what it promises for the document. */
export interface Operation {
  /** operationId */
  id: string;
  method: 'get' | 'post' | 'put' | 'delete';
  /** Koa-style path, e.g. `/api/games/:id`. */
  path: string;
  summary: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: JsonSchema;
  /** Answers of their own shape: successes, and a health check's 503. */
  responses: Record<number, SuccessResponse>;
  /** Statuses answered with the JSON error body. */
  errors: number[];
  /** A GET whose answers are never stored (`no-store`), so never a 304. */
  noStore?: boolean;
  /** Documented as needing the bearer token (enforced by a middleware in `use`). */
  bearerAuth?: boolean;
  /** Middleware run before the handler, in order (token, id, body). */
  use?: Middleware[];
  handler: Middleware;
}

export interface ApiInfo {
  title: string;
  version: string;
  description: string;
  /** When operations need the bearer token: how a client gets one (names the setting). */
  bearerDescription?: string;
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input; `details` names each problem',
  401: 'Missing or wrong bearer token',
  404: 'Not found',
  412: 'A precondition does not hold (`If-Match` names no current version, or `If-None-Match` on a write names the current one); nothing was changed',
  413: 'Body too large',
  415: 'Body is not JSON',
  500: 'Unexpected failure (details are in the server log, never in the response)',
  503: 'A dependency is unavailable; try again after `Retry-After` seconds',
};

const BEARER_DESCRIPTION =
  'Writes need `Authorization: Bearer <token>` when the service has a token.';

/** A relative URL, resolved against the document's: true on any host and port, behind a proxy. */
const SAME_ORIGIN = {
  url: '/',
  description: 'The host that serves this document (a relative URL: any host and port)',
};

const json = (schema: unknown) => ({ 'application/json': { schema } });

/** An OpenAPI 3.1 document of the operations; every schema in it is one the service uses. */
export function openApiDocument(info: ApiInfo, operations: readonly Operation[]): JsonSchema {
  const secured = operations.some((op) => op.bearerAuth);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const responses: Record<string, unknown> = {};
    for (const [status, { description, headers, schema }] of Object.entries(op.responses)) {
      responses[status] = {
        description,
        ...(headers && { headers }),
        ...(schema && { content: json(schema) }),
      };
    }
    if (op.method === 'get' && !op.noStore && !('304' in responses))
      responses['304'] = { description: 'Not modified (matching `If-None-Match`)' };
    for (const status of [...op.errors, 500]) {
      responses[String(status)] = {
        description: ERROR_DESCRIPTIONS[status] ?? 'Error',
        content: json({ $ref: '#/components/schemas/Error' }),
      };
    }
    const path = op.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    (paths[path] as Record<string, unknown>)[op.method] = {
      summary: op.summary,
      ...(op.description && { description: op.description }),
      operationId: op.id,
      ...(op.parameters && { parameters: op.parameters }),
      ...(op.requestBody && { requestBody: { required: true, content: json(op.requestBody) } }),
      // With a scheme in the document, each operation says whether it needs it: a read, not.
      ...(secured && { security: op.bearerAuth ? [{ bearerAuth: [] }] : [] }),
      responses,
    };
  }
  const { bearerDescription = BEARER_DESCRIPTION, ...documentInfo } = info;
  return {
    openapi: '3.1.0',
    info: documentInfo,
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [SAME_ORIGIN],
    paths,
    components: {
      schemas: { Error: errorBodySchema },
      ...(secured && {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: bearerDescription },
        },
      }),
    },
  };
}

/** The document and its page change only with a new release of the service. */
export const DOCS_CACHE = CACHE_CONTROL.stable;

export const DOCUMENT_PATH = '/openapi.json';
