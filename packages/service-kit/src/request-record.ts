// Hand-written: the maintained request-id packages do not check the id they are given, and
// pino-http logs the raw URL rather than the route template.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { RouterContext } from '@koa/router';
import type { Context, Middleware } from 'koa';
import { Histogram, type Registry } from 'prom-client';
import { CACHE_CONTROL } from './cache-control.js';
import { HEALTH_PATHS } from './health.js';
import type { Logger } from './log.js';

const VALID_ID = /^[\w.:-]{1,128}$/;

/** A JSON path: its errors are JSON, as the API's. */
export const METRICS_PATH = '/metrics';

export function metricsEndpoint(registry: Registry): Middleware {
  return (ctx, next) => {
    if (ctx.path !== METRICS_PATH || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    ctx.set('Cache-Control', CACHE_CONTROL.noStore);
    ctx.type = registry.contentType;
    return registry.metrics().then((text) => {
      ctx.body = text;
    });
  };
}

/** Probes come every few seconds: their successes are logged at debug level, below people's. */
const PROBES = new Set<string>(Object.values(HEALTH_PATHS));

/** The route as its template (`/cds/:id`), never the raw path: the label set stays bounded. */
function routeOf(ctx: Context): string {
  const { routerPath } = ctx as Partial<RouterContext>;
  if (routerPath !== undefined) return routerPath;
  if (ctx.path.startsWith('/assets/')) return '/assets/:file';
  return ctx.path === METRICS_PATH ? METRICS_PATH : 'unmatched';
}

export interface RequestRecords {
  /** Gives the request its id (the caller's X-Request-Id when sane); returns when it started. */
  start(ctx: Context): number;
  /** Once its answer is final: its time to answer in the metrics and, when logging, its line. */
  finish(ctx: Context, started: number): void;
}

/**
 * What every request gets: an id, its time to answer in `metrics` (whose `_count` counts the
 * requests: one metric per request, not two) and, when given, one line in `log`.
 */
export function requestRecords(
  log: Logger | undefined,
  metrics: Registry | undefined,
): RequestRecords {
  const duration =
    metrics &&
    new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route template, method and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [metrics],
    });
  return {
    start(ctx) {
      const started = performance.now();
      const given = ctx.req.headers['x-request-id'];
      const requestId = typeof given === 'string' && VALID_ID.test(given) ? given : randomUUID();
      ctx.state.requestId = requestId;
      ctx.res.setHeader('X-Request-Id', requestId);
      return started;
    },
    finish(ctx, started) {
      const seconds = (performance.now() - started) / 1e3;
      const { method, status } = ctx;
      duration?.observe({ method, route: routeOf(ctx), status: String(status) }, seconds);
      if (log) {
        const level = status < 400 && PROBES.has(ctx.path) ? 'debug' : 'info';
        const { requestId } = ctx.state;
        log[level]({ method, path: ctx.path, status, requestId, ms: seconds * 1e3 }, 'request');
      }
    },
  };
}
