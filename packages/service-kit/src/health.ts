import type { Context } from 'koa';
import { CACHE_CONTROL } from './cache-control.js';
import type { JsonSchema, Operation } from './operations.js';

type HealthReport = { ok: boolean; details: Record<string, unknown> };

/**
 * What a service's `/healthz` reports: `details` (their schemas) from `check`, not ok while a
 * dependency does not answer; `mayFail` documents that 503.
 */
export interface HealthOptions {
  summary?: string;
  details: Record<string, JsonSchema>;
  check: () => HealthReport | Promise<HealthReport>;
  mayFail?: boolean;
}

/** The probes' paths, named once: the routes, the JSON paths and the quiet log of probes. */
export const HEALTH_PATHS = { health: '/healthz', live: '/livez', ready: '/readyz' } as const;

/** The apps whose process is shutting down (`runService` marks them): their /readyz answers 503. */
const drainingApps = new WeakSet<object>();

export const markDraining = (app: object) => drainingApps.add(app);

const schema = (status: JsonSchema, details: Record<string, JsonSchema> = {}) => ({
  type: 'object',
  additionalProperties: false,
  required: ['status', ...Object.keys(details)],
  properties: { status: { type: 'string', ...status }, ...details },
});

/** A GET never stored, answering `{ status, ...details }`: 200 if its status is `ok`, else 503. */
function probe(
  operation: Omit<Operation, 'method' | 'errors' | 'handler'>,
  answer: (ctx: Context) => Promise<{ status: string }>,
): Operation {
  return {
    ...operation,
    method: 'get',
    noStore: true,
    errors: [],
    handler: async (ctx) => {
      ctx.set('Cache-Control', CACHE_CONTROL.noStore);
      const body = await answer(ctx);
      ctx.status = body.status === 'ok' ? 200 : 503;
      ctx.body = body;
    },
  };
}

/** The three probes, Kubernetes' way (see README.md). */
export function healthOperations({
  summary = 'Whether the service is up',
  details,
  check,
  mayFail = false,
}: HealthOptions): Operation[] {
  const up = { description: 'The service is up', schema: schema({ const: 'ok' }, details) };
  const down = {
    description: 'A dependency does not answer',
    schema: schema({ const: 'unavailable' }, details),
  };
  const health = probe(
    {
      id: 'health',
      path: HEALTH_PATHS.health,
      summary,
      responses: mayFail ? { 200: up, 503: down } : { 200: up },
    },
    async () => {
      const report = await check();
      return { status: report.ok ? 'ok' : 'unavailable', ...report.details };
    },
  );
  const live = probe(
    {
      id: 'liveness',
      path: HEALTH_PATHS.live,
      summary: 'Whether the process runs (the liveness probe)',
      responses: { 200: { description: 'It runs', schema: schema({ const: 'ok' }) } },
    },
    async () => ({ status: 'ok' }),
  );
  const ready = probe(
    {
      id: 'readiness',
      path: HEALTH_PATHS.ready,
      summary: 'Whether the service takes requests (the readiness probe)',
      description: mayFail
        ? '503 `draining` once the process is shutting down, 503 `unavailable` while a dependency does not answer.'
        : '503 `draining` once the process is shutting down.',
      responses: {
        200: { description: 'It takes requests', schema: schema({ const: 'ok' }) },
        503: {
          description: 'It is shutting down, or a dependency does not answer',
          schema: schema({ enum: mayFail ? ['draining', 'unavailable'] : ['draining'] }),
        },
      },
    },
    async (ctx) => {
      if (drainingApps.has(ctx.app)) return { status: 'draining' };
      return { status: (await check()).ok ? 'ok' : 'unavailable' };
    },
  );
  return [health, live, ready];
}
