import { collectDefaultMetrics, Registry } from 'prom-client';
import { CACHE_CONTROL } from './cache-control.js';
import { Router } from './routing.js';

/** A JSON path: its errors are JSON, as the API's. */
export const METRICS_PATH = '/metrics';

/** A registry of the process's own metrics (and its event loop's), labelled with the service. */
export function processMetrics(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** GET /metrics: the registry in Prometheus' text format. */
export function metricsRouter(registry: Registry): Router {
  return new Router().get(METRICS_PATH, async (ctx) => {
    ctx.set('Cache-Control', CACHE_CONTROL.noStore);
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
}
