import type { JsonSchema, Operation } from './operations.js';

export interface HealthReport {
  /** False when a dependency does not answer: 503. */
  ok: boolean;
  /** What the service tells beside its status (how many records, which store). */
  facts: Record<string, unknown>;
}

export interface HealthOptions {
  summary?: string;
  /** The JSON Schemas of the facts. */
  facts: Record<string, JsonSchema>;
  check: () => HealthReport | Promise<HealthReport>;
  /** Documents the 503 of a dependency that does not answer. */
  mayFail?: boolean;
}

const schema = (status: string, facts: Record<string, JsonSchema>) => ({
  type: 'object',
  additionalProperties: false,
  required: ['status', ...Object.keys(facts)],
  properties: { status: { const: status }, ...facts },
});

/** GET /healthz: `{"status": "ok", ...facts}`, or 503 `{"status": "unavailable", ...}`; never stored. */
export function healthOperation({
  summary = 'Whether the service is up',
  facts,
  check,
  mayFail = false,
}: HealthOptions): Operation {
  const responses: Operation['responses'] = {
    200: { description: 'The service is up', schema: schema('ok', facts) },
  };
  if (mayFail) {
    responses[503] = {
      description: 'A dependency does not answer',
      schema: schema('unavailable', facts),
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
      ctx.set('Cache-Control', 'no-store');
      const report = await check();
      ctx.status = report.ok ? 200 : 503;
      ctx.body = { status: report.ok ? 'ok' : 'unavailable', ...report.facts };
    },
  };
}
