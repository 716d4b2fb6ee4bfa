import type { ApiInfo, Operation } from 'service-kit';

export const API_INFO: ApiInfo = {
  title: 'Trip Planner API',
  version: '1.0.0',
  description:
    'Read-only travel itineraries: one plan per destination, its activities with prices in US dollars, and the total. Lists are bare arrays; errors are `{"error", "status"}` objects.',
};

const healthSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'destinations'],
  properties: { status: { const: 'ok' }, destinations: { type: 'integer', minimum: 0 } },
};

export function healthOperation(destinationCount: number): Operation {
  return {
    id: 'health',
    method: 'get',
    path: '/healthz',
    summary: 'Whether the service is up',
    responses: { 200: { description: 'The service is up', schema: healthSchema } },
    errors: [],
    handler: (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { status: 'ok', destinations: destinationCount };
    },
  };
}
