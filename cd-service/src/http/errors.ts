import { STATUS_CODES } from 'node:http';
import type { Context, Middleware } from 'koa';
import type { Logger } from '../log.js';

export interface ErrorDetail {
  field: string;
  message: string;
}

export interface ErrorBody {
  error: string;
  status: number;
  details?: ErrorDetail[];
}

/** The JSON error body, as documented in the OpenAPI document. */
export const errorBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['error', 'status'],
  properties: {
    error: { type: 'string', description: 'What went wrong, for a human' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    details: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['field', 'message'],
        properties: { field: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
};

interface ErrorOptions {
  logger: Logger;
}

/**
 * The one place where failures become responses, always the JSON error body: operational
 * errors (4xx) keep their message, anything else is logged and answered with a generic 500.
 * Bodiless error statuses (404 fall-through, 405 from the router) get a body too. No error
 * is kept by caches.
 */
export function errorHandler({ logger }: ErrorOptions): Middleware {
  return async (ctx, next) => {
    let body: ErrorBody;
    try {
      await next();
      if (ctx.status < 400 || ctx.body != null) return;
      body = { error: fallThroughMessage(ctx), status: ctx.status };
    } catch (error) {
      body = toErrorBody(error);
      if (body.status >= 500) {
        logger.error('unhandled error', {
          method: ctx.method,
          path: ctx.path,
          requestId: ctx.state.requestId,
          error: error instanceof Error ? error.stack : String(error),
        });
      }
      // Headers set for the failed response (location, paging, validators) do not apply to the error.
      for (const name of [
        'Location',
        'Link',
        'X-Total-Count',
        'ETag',
        'Last-Modified',
        'Content-Encoding',
      ]) {
        ctx.remove(name);
      }
      if (error && typeof error === 'object' && 'headers' in error && body.status < 500) {
        ctx.set(error.headers as Record<string, string>);
      }
    }
    ctx.status = body.status;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  };
}

function toErrorBody(error: unknown): ErrorBody {
  const candidate = error as {
    status?: unknown;
    expose?: unknown;
    message?: unknown;
    details?: unknown;
  };
  const status = candidate?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const message =
      candidate.expose && typeof candidate.message === 'string' && candidate.message !== ''
        ? candidate.message
        : defaultMessage(status);
    const body: ErrorBody = { error: message, status };
    if (Array.isArray(candidate.details)) body.details = candidate.details as ErrorDetail[];
    return body;
  }
  const serverStatus = typeof status === 'number' && status >= 500 && status < 600 ? status : 500;
  return { error: defaultMessage(serverStatus), status: serverStatus };
}

function fallThroughMessage(ctx: Context): string {
  if (ctx.status === 404) return `Nothing here: ${ctx.method} ${ctx.path}`;
  if (ctx.status === 405) return `Method ${ctx.method} is not allowed on ${ctx.path}`;
  return defaultMessage(ctx.status);
}

function defaultMessage(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

/** An operational error: its message is shown to the client. */
export function httpError(
  status: number,
  message: string,
  details?: ErrorDetail[],
  headers?: Record<string, string>,
): Error {
  return Object.assign(new Error(message), { status, expose: true, details, headers });
}
