import { CACHE_CONTROL } from './cache-control.js';
import type { JsonSchema, Operation } from './operations.js';

export interface HealthReport {
  /** False when a dependency does not answer: 503. */
  ok: boolean;
  /** What the service tells beside its status (how many records, which store). */
  details: Record<string, unknown>;
}

export interface HealthOptions {
  summary?: string;
  /** The JSON Schemas of the details, by name. */
  details: Record<string, JsonSchema>;
  /** The service's state: /healthz shows it, /readyz answers 503 when it is not ok. */
  check: () => HealthReport | Promise<HealthReport>;
  /** Documents the 503 of a dependency that does not answer. */
  mayFail?: boolean;
}

const schema = (status: string, details: Record<string, JsonSchema>) => ({
  type: 'object',
  additionalProperties: false,
  required: ['status', ...Object.keys(details)],
  properties: { status: { type: 'string', const: status }, ...details },
});

/** The probes' paths, named once: the routes, the JSON paths and the quiet log of probes. */
export const HEALTH_PATHS = { health: '/healthz', live: '/livez', ready: '/readyz' } as const;

/** The apps whose process is shutting down (`serve` marks them): their /readyz answers 503. */
const drainingApps = new WeakSet<object>();

/** From now on, the app's /readyz answers 503 `draining`. */
export function markDraining(app: object): void {
  drainingApps.add(app);
}

/**
 * The three probes, Kubernetes' way, never stored:
 * - GET /healthz: `{"status": "ok", ...details}`, or 503 `unavailable`: the service's state, for
 *   people and compose;
 * - GET /livez: `{"status": "ok"}` while the process runs: the liveness probe;
 * - GET /readyz: `{"status": "ok"}`, or 503 `draining` once the process is shutting down, or 503
 *   `unavailable` when the check fails: the readiness probe, and a proxy's health check.
 */
export function healthOperations({
  summary = 'Whether the service is up',
  details,
  check,
  mayFail = false,
}: HealthOptions): Operation[] {
  const responses: Operation['responses'] = {
    200: { description: 'The service is up', schema: schema('ok', details) },
  };
  if (mayFail) {
    responses[503] = {
      description: 'A dependency does not answer',
      schema: schema('unavailable', details),
    };
  }
  const health: Operation = {
    id: 'health',
    method: 'get',
    path: HEALTH_PATHS.health,
    summary,
    responses,
    errors: [],
    handler: async (ctx) => {
      ctx.set('Cache-Control', CACHE_CONTROL.noStore);
      const report = await check();
      ctx.status = report.ok ? 200 : 503;
      ctx.body = { status: report.ok ? 'ok' : 'unavailable', ...report.details };
    },
  };
  const live: Operation = {
    id: 'liveness',
    method: 'get',
    path: HEALTH_PATHS.live,
    summary: 'Whether the process runs (the liveness probe)',
    responses: { 200: { description: 'It runs', schema: schema('ok', {}) } },
    errors: [],
    handler: (ctx) => {
      ctx.set('Cache-Control', CACHE_CONTROL.noStore);
      ctx.body = { status: 'ok' };
    },
  };
  const ready: Operation = {
    id: 'readiness',
    method: 'get',
    path: HEALTH_PATHS.ready,
    summary: 'Whether the service takes requests (the readiness probe)',
    description: mayFail
      ? '503 `draining` once the process is shutting down, 503 `unavailable` while a dependency does not answer.'
      : '503 `draining` once the process is shutting down.',
    responses: {
      200: { description: 'It takes requests', schema: schema('ok', {}) },
      503: {
        description: 'It is shutting down, or a dependency does not answer',
        schema: {
          type: 'object',
          additionalProperties: false,
          required: ['status'],
          properties: {
            status: { type: 'string', enum: mayFail ? ['draining', 'unavailable'] : ['draining'] },
          },
        },
      },
    },
    errors: [],
    handler: async (ctx) => {
      ctx.set('Cache-Control', CACHE_CONTROL.noStore);
      const status = drainingApps.has(ctx.app)
        ? 'draining'
        : (await check()).ok
          ? 'ok'
          : 'unavailable';
      ctx.status = status === 'ok' ? 200 : 503;
      ctx.body = { status };
    },
  };
  return [health, live, ready];
}
