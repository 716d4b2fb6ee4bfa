import type { Middleware } from 'koa';
import { collectDefaultMetrics, Registry } from 'prom-client';
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
