// Hand-written: the maintained request-id packages do not check the id they are given, and
// pino-http logs the raw URL rather than the route template.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { RouterContext } from '@koa/router';
import type { Context, Middleware } from 'koa';
import { Histogram, type Registry } from 'prom-client';
import { HEALTH_PATHS } from '../health.js';
import type { Logger } from '../log.js';
import type { KitState } from './path.js';

const VALID_ID = /^[\w.:-]{1,128}$/;

/** Probes come every few seconds: their successes are logged at debug level, below people's. */
const PROBES = new Set<string>(Object.values(HEALTH_PATHS));

/** The route as its template (`/cds/:id`), never the raw path: the label set stays bounded. */
function routeOf(ctx: Context): string {
  const { routerPath } = ctx as Partial<RouterContext>;
  if (routerPath !== undefined) return routerPath;
  return ctx.path.startsWith('/assets/') ? '/assets/:file' : 'unmatched';
}

/**
 * What every request gets: an id (the caller's X-Request-Id when sane, else a new one), its time
 * to answer in `metrics` (whose `_count` counts the requests: one metric per request, not two)
 * and, when given, one line in `log` once its answer is final.
 */
export function requestRecord(
  log: Logger | undefined,
  metrics: Registry | undefined,
): Middleware<KitState> {
  const duration =
    metrics &&
    new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route template, method and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [metrics],
    });
  return async (ctx, next) => {
    const started = performance.now();
    const given = ctx.req.headers['x-request-id'];
    const requestId = typeof given === 'string' && VALID_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
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
