import type { ApiInfo, Operation } from 'service-kit';

export const API_INFO: ApiInfo = {
  title: 'Game Shelf API',
  version: '1.0.0',
  description:
    'A read-only catalogue of video games. Lists are bare arrays; errors are `{"error", "status"}` objects.',
};

const healthSchema = {
  type: 'object',
  required: ['status', 'games'],
  properties: { status: { const: 'ok' }, games: { type: 'integer', minimum: 0 } },
};

export function healthOperation(gameCount: number): Operation {
  return {
    id: 'health',
    method: 'get',
    path: '/healthz',
    summary: 'Whether the service is up',
    responses: { 200: { description: 'The service is up', schema: healthSchema } },
    errors: [],
    handler: (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { status: 'ok', games: gameCount };
    },
  };
}
