import { STATUS_CODES } from 'node:http';
import type { Context, Middleware } from 'koa';
import type { Logger } from './log.js';

export interface ErrorDetail {
  field: string;
  message: string;
}

/** The JSON error body of every service. */
export interface ErrorBody {
  error: string;
  status: number;
  details?: ErrorDetail[];
}

/** The JSON error body, as documented in every OpenAPI document. */
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

/** A failure meant for the client: its status, message, details and headers are sent as they are. */
export class HttpError extends Error {
  override name = 'HttpError';
  /** Koa's convention: the message may be shown to the client. */
  readonly expose = true;

  constructor(
    readonly status: number,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export class BadRequest extends HttpError {
  constructor(message: string, details?: ErrorDetail[]) {
    super(400, message, details);
  }
}

export class Unauthorized extends HttpError {
  constructor(message: string, scheme = 'Bearer') {
    super(401, message, undefined, { 'WWW-Authenticate': scheme });
  }
}

export class NotFound extends HttpError {
  constructor(message: string) {
    super(404, message);
  }
}

export class PayloadTooLarge extends HttpError {
  constructor(message: string) {
    // The rest of an oversized body is not read: the connection cannot be reused.
    super(413, message, undefined, { Connection: 'close' });
  }
}

export class UnsupportedMediaType extends HttpError {
  constructor(message: string) {
    super(415, message);
  }
}

/** A dependency (a database) does not answer; the client may try again later. */
export class ServiceUnavailable extends HttpError {
  constructor(message: string, retryAfterSeconds = 5) {
    super(503, message, undefined, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** Headers of the failed answer that do not apply to its error. */
const DISCARDED_ON_ERROR = [
  'Cache-Control',
  'Content-Encoding',
  'ETag',
  'Last-Modified',
  'Link',
  'Location',
  'X-Total-Count',
];

export interface ErrorHandlerOptions {
  logger: Logger;
  /** Renders the error page of a request that is not for the JSON API; JSON when absent or failing. */
  renderPage?: ((ctx: Context, body: ErrorBody) => Promise<string>) | undefined;
  isApi: (ctx: Context) => boolean;
  /** Headers every error answer carries (the security headers), whatever failed and where. */
  headers: Record<string, string>;
}

/**
 * The one place where failures become answers: an HttpError (or any error with a 4xx status,
 * as Koa's own helpers throw) keeps its message; anything else is logged and answered with a
 * generic message. Bodiless error statuses (404 fall-through, 405 from the router) get a body
 * too. No error answer is stored by any cache.
 */
export function errorHandler({
  logger,
  renderPage,
  isApi,
  headers: always,
}: ErrorHandlerOptions): Middleware {
  return async (ctx, next) => {
    let body: ErrorBody;
    try {
      await next();
      if (ctx.status < 400 || ctx.body != null) return;
      body = { error: fallThroughMessage(ctx, isApi(ctx)), status: ctx.status };
    } catch (error) {
      body = toErrorBody(error);
      if (body.status >= 500) {
        logger.error(
          { err: error, method: ctx.method, path: ctx.path, requestId: ctx.state.requestId },
          error instanceof HttpError ? error.message : 'unhandled error',
        );
      }
      for (const name of DISCARDED_ON_ERROR) ctx.remove(name);
      const headers = (error as { headers?: unknown }).headers;
      if (headers && typeof headers === 'object') ctx.set(headers as Record<string, string>);
    }
    ctx.status = body.status;
    ctx.set(always);
    ctx.set('Cache-Control', 'no-store');
    // A body not read yet stays unread: Node would otherwise read all of it to reuse the connection.
    if (!ctx.req.complete) ctx.set('Connection', 'close');
    if (renderPage && !isApi(ctx)) {
      try {
        ctx.body = await renderPage(ctx, body);
        ctx.status = body.status;
        return;
      } catch (error) {
        logger.error({ err: error }, 'error page failed');
      }
    }
    ctx.body = body;
  };
}

function toErrorBody(error: unknown): ErrorBody {
  const { status, expose, message, details } = (error ?? {}) as Partial<HttpError>;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const body: ErrorBody = {
      error: expose && typeof message === 'string' && message !== '' ? message : statusText(status),
      status,
    };
    if (Array.isArray(details)) body.details = details;
    return body;
  }
  if (error instanceof HttpError) return { error: error.message, status: error.status };
  const serverStatus = typeof status === 'number' && status >= 500 && status < 600 ? status : 500;
  return { error: statusText(serverStatus), status: serverStatus };
}

function fallThroughMessage(ctx: Context, api: boolean): string {
  if (ctx.status === 404) {
    return api ? `Nothing here: ${ctx.method} ${ctx.path}` : `There is no page at ${ctx.path}.`;
  }
  if (ctx.status === 405) return `Method ${ctx.method} is not allowed on ${ctx.path}`;
  return statusText(ctx.status);
}

export const statusText = (status: number): string => STATUS_CODES[status] ?? 'Error';
