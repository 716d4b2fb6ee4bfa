// By hand: no maintained library drops a request body an error answer left unread, within bounds
// (what nginx calls a lingering close).
import { type IncomingMessage, STATUS_CODES } from 'node:http';
import { isHttpError } from 'http-errors';
import type Koa from 'koa';
import type { Context, Middleware, ParameterizedContext } from 'koa';
import { DISCARDED_ON_ERROR } from '../api-headers.js';
import { CACHE_CONTROL } from '../cache-control.js';
import type { ErrorBody } from '../errors.js';
import type { Logger } from '../log.js';
import type { KitState } from './path.js';

/** Errors of an answer whose client went away in the middle of it (a probe that timed out too). */
const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE']);

/**
 * The one place where failures become answers: an error meant for the client (http-errors'
 * `expose`) keeps its status, message, details and headers; anything else is logged and answered
 * with a generic message. So does an error status the routes left without a body (the routers'
 * 404 and 405). A service's own errors are first turned into the HTTP errors they are answered
 * with (`toHttpError`); the log keeps the error thrown, with its own cause and fields. Each gets
 * the security headers again (`secure`: the failure may have come before they were set) and,
 * outside the JSON paths, the error page when it renders. A failure after the answer started cuts
 * it: the client sees it cut, not an answer that never ends.
 */
export function errors(
  logger: Logger,
  secure: (ctx: Context) => void,
  renderPage: ((ctx: Context, body: ErrorBody) => Promise<string>) | undefined,
  toHttpError: (error: unknown) => unknown = (error) => error,
): Middleware<KitState> {
  const answer = async (ctx: ParameterizedContext<KitState>, body: ErrorBody) => {
    ctx.status = body.status;
    secure(ctx);
    ctx.set('Cache-Control', CACHE_CONTROL.noStore);
    // A body left unread is dropped within bounds, so that closing cannot reset the answer away;
    // beyond them it stays unread (Node would read all of it to reuse the connection).
    if (!(await dropUnreadBody(ctx.req))) ctx.set('Connection', 'close');
    if (renderPage && !ctx.state.jsonPath) {
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
  const thrown = (ctx: ParameterizedContext<KitState>, error: unknown) => {
    const answered = toHttpError(error);
    const body = toErrorBody(answered);
    if (body.status >= 500) {
      logger.error(
        { err: error, method: ctx.method, path: ctx.path, requestId: ctx.state.requestId },
        isHttpError(answered) && answered.expose ? answered.message : 'unhandled error',
      );
    }
    for (const name of DISCARDED_ON_ERROR) ctx.remove(name);
    const { headers } = Object(answered) as { headers?: unknown };
    if (headers && typeof headers === 'object') ctx.set(headers as Record<string, string>);
    return answer(ctx, body);
  };
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status >= 400 && ctx.body == null && !ctx.res.headersSent) {
        await answer(ctx, { error: fallThroughMessage(ctx), status: ctx.status });
      }
    } catch (error) {
      if (!ctx.res.headersSent) await thrown(ctx, error);
      else {
        ctx.app.emit('error', error, ctx);
        ctx.res.destroy();
      }
    }
  };
}

/**
 * A failure after the answer has started (a client gone in the middle of a streamed body) reaches
 * Koa's 'error' event, not the middleware, and Koa would print its stack to stderr: it is logged.
 */
export function logLateErrors(app: Koa, logger: Logger): void {
  app.on('error', (error: NodeJS.ErrnoException) => {
    if (CLIENT_GONE.has(error.code ?? '')) {
      logger.debug({ err: error }, 'the client left before the answer was sent');
    } else logger.error({ err: error }, 'the answer failed after it started');
  });
}

function toErrorBody(error: unknown): ErrorBody {
  const { status, expose, message, details } = Object(error) as Record<string, unknown>;
  if (typeof status !== 'number' || status < 400 || status >= 600) {
    return { error: statusText(500), status: 500 };
  }
  const shown = Boolean(expose) && typeof message === 'string' && message !== '';
  const body: ErrorBody = { error: shown ? message : statusText(status), status };
  if (status < 500 && Array.isArray(details)) body.details = details;
  return body;
}

function fallThroughMessage(ctx: ParameterizedContext<KitState>): string {
  const api = ctx.state.jsonPath;
  // HEAD is GET without the body, errors included: the same words, so the same Content-Length.
  const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
  if (ctx.status === 404 && api) return `Nothing here: ${method} ${ctx.path}`;
  if (ctx.status === 404) return `There is no page at ${ctx.path}.`;
  if (ctx.status === 405) return `Method ${method} is not allowed on ${ctx.path}`;
  return statusText(ctx.status);
}

const statusText = (status: number): string => STATUS_CODES[status] ?? 'Error';

const DROP_BYTES = 4 * 1024 * 1024;
const DROP_MS = 1000;

/**
 * Resolves whether the rest of the body was dropped; else the connection must close, and a socket
 * closed with unread bytes sends a reset, which can destroy an answer the client has not read yet.
 */
function dropUnreadBody(req: IncomingMessage): Promise<boolean> {
  if (req.complete || req.destroyed || Number(req.headers['content-length']) > DROP_BYTES) {
    return Promise.resolve(req.complete);
  }
  return new Promise((resolve) => {
    let dropped = 0;
    const onData = (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > DROP_BYTES) finish(false);
    };
    const onEnd = () => finish(true);
    const onGone = () => finish(false);
    const timer = setTimeout(onGone, DROP_MS);
    function finish(ended: boolean) {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
      if (!ended) req.pause();
      resolve(ended);
    }
    // A body parser that stopped (a body over its limit) may still pipe it into a decompressor.
    req.unpipe();
    req.on('data', onData).once('end', onEnd).once('error', onGone).once('close', onGone);
    req.resume();
  });
}
