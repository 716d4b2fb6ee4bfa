import type { ApiInfo, Operation } from 'service-kit';
import { NO_STORE } from './cache-control.js';

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

// KIT: every service declares this same GET /healthz; the kit could own it as
// `healthOperation(counts)` (answers `{status: 'ok', ...counts}`, no-store, documented).
export function healthOperation(destinations: number): Operation {
  const body = { status: 'ok', destinations };
  return {
    id: 'health',
    method: 'get',
    path: '/healthz',
    summary: 'Whether the service is up',
    description: 'With how many destinations it has itineraries for; never stored by a cache.',
    responses: { 200: { description: 'The service is up', schema: healthSchema } },
    errors: [],
    handler: (ctx) => {
      ctx.set('Cache-Control', NO_STORE);
      ctx.body = body;
    },
  };
}
