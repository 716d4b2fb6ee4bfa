import { Histogram } from 'prom-client';
import type { CdStore } from './store.js';

/** The store's methods that are timed: each one a request may run. */
const TIMED: readonly (keyof CdStore)[] = [
  'insert',
  'get',
  'update',
  'delete',
  'list',
  'count',
  'ping',
];

/**
 * The store with its methods timed, and the histogram that times them, by operation and outcome
 * (`ok` or `error`): their latency, and with `_count{outcome="error"}` their failures. The
 * histogram is in no registry yet: the app adds it to the one of GET /metrics.
 */
export function timedStore(store: CdStore): { store: CdStore; metric: Histogram } {
  const metric = new Histogram({
    name: 'cd_store_operation_duration_seconds',
    help: 'Time of a CD store operation, by operation and outcome (ok or error)',
    labelNames: ['operation', 'outcome'] as const,
    buckets: [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
    registers: [],
  });
  const timed = new Set<PropertyKey>(TIMED);
  const proxy = new Proxy(store, {
    get(object, property) {
      const value = Reflect.get(object, property, object);
      if (typeof value !== 'function' || !timed.has(property)) return value;
      return async (...args: unknown[]) => {
        const end = metric.startTimer({ operation: String(property) });
        try {
          const result = await value.apply(object, args);
          end({ outcome: 'ok' });
          return result;
        } catch (error) {
          end({ outcome: 'error' });
          throw error;
        }
      };
    },
  });
  return { store: proxy, metric };
}
