// Hand-written: pino-http logs the raw URL, not the route template, and adds a second request id.
import type { Middleware } from 'koa';
import type { Logger } from './log.js';

/** One structured log line per request, written once the response is decided. */
export function requestLog(logger: Logger): Middleware {
  return async (ctx, next) => {
    const start = process.hrtime.bigint();
    try {
      await next();
    } finally {
      logger.info(
        {
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          requestId: ctx.state.requestId,
          ms: Number(process.hrtime.bigint() - start) / 1e6,
        },
        'request',
      );
    }
  };
}
