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
  check: () => HealthReport | Promise<HealthReport>;
  /** Documents the 503 of a dependency that does not answer. */
  mayFail?: boolean;
}

const schema = (status: string, details: Record<string, JsonSchema>) => ({
  type: 'object',
  additionalProperties: false,
  required: ['status', ...Object.keys(details)],
  properties: { status: { const: status }, ...details },
});

/** GET /healthz: `{"status": "ok", ...details}`, or 503 `{"status": "unavailable", ...}`; never stored. */
export function healthOperation({
  summary = 'Whether the service is up',
  details,
  check,
  mayFail = false,
}: HealthOptions): Operation {
  const responses: Operation['responses'] = {
    200: { description: 'The service is up', schema: schema('ok', details) },
  };
  if (mayFail) {
    responses[503] = {
      description: 'A dependency does not answer',
      schema: schema('unavailable', details),
    };
  }
  return {
    id: 'health',
    method: 'get',
    path: '/healthz',
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
}
