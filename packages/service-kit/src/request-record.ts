// Hand-written: the maintained request-id packages do not check the id they are given, and
// pino-http logs the raw URL rather than the route template.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Middleware } from 'koa';
import type { Registry } from 'prom-client';
import { HEALTH_PATHS } from './health.js';
import type { Logger } from './log.js';
import { requestDuration, routeOf } from './metrics.js';

const VALID_ID = /^[\w.:-]{1,128}$/;

/**
 * The probes an orchestrator, Docker's health check or the proxy sends every few seconds: their
 * successful answers are logged at debug level, so that they do not bury the requests of people.
 */
const PROBES = new Set<string>(Object.values(HEALTH_PATHS));

/** The caller's X-Request-Id when it is sane, else a new one. */
export function requestIdFor(given: string | string[] | undefined): string {
  return typeof given === 'string' && VALID_ID.test(given) ? given : randomUUID();
}

/**
 * What every request gets: an id (in `ctx.state.requestId` and X-Request-Id), and a record of
 * its answer in `metrics` (by route template) and, when given, one line in `log`.
 */
export function recordRequests({
  log,
  metrics,
}: {
  log?: Logger | undefined;
  metrics?: Registry | undefined;
}): Middleware {
  const duration = metrics && requestDuration(metrics);
  return async (ctx, next) => {
    const started = performance.now();
    const requestId = requestIdFor(ctx.req.headers['x-request-id']);
    ctx.state.requestId = requestId;
    ctx.res.setHeader('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      const seconds = (performance.now() - started) / 1e3;
      const { method, status } = ctx;
      duration?.observe({ method, route: routeOf(ctx), status: String(status) }, seconds);
      if (log) {
        const level = status < 400 && PROBES.has(ctx.path) ? 'debug' : 'info';
        log[level]({ method, path: ctx.path, status, requestId, ms: seconds * 1e3 }, 'request');
      }
    }
  };
}
