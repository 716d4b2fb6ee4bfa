import type { RouterContext } from '@koa/router';
import type { Context, Middleware } from 'koa';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { CACHE_CONTROL } from './cache-control.js';

/** Its errors are JSON, as the API's. */
export const METRICS_PATH = '/metrics';

/** A Prometheus registry with the process and event-loop metrics of prom-client. */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}

/**
 * The route a request went to, as its template (`/cds/:id`), never the raw path: the label
 * set stays bounded whatever paths clients send.
 */
export function routeOf(ctx: Context): string {
  // @koa/router sets routerPath on the context of a request that one of its routes answered.
  const { routerPath } = ctx as Partial<RouterContext>;
  if (routerPath !== undefined) return routerPath;
  if (ctx.path.startsWith('/assets/')) return '/assets/:file';
  return ctx.path === METRICS_PATH ? METRICS_PATH : 'unmatched';
}

/**
 * The time to answer each request, by route template, method and status: its `_count` series
 * counts the requests (one metric per request, not two: it is on every request's path).
 */
export function requestDuration(registry: Registry): Histogram<'method' | 'route' | 'status'> {
  return new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route template, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
}

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
