import { type ApiInfo, healthOperations, type Operation } from 'service-kit';

export const API_INFO: ApiInfo = {
  title: 'Trip Planner API',
  version: '1.0.0',
  description:
    'Read-only travel itineraries: one plan per destination, its activities with prices in US dollars, and the total. Lists are bare arrays; errors are `{"error", "status"}` objects.',
};

/**
 * GET /healthz: up, with how many destinations it has itineraries for; /livez, and /readyz
 * ready until the process stops.
 */
export const travelHealth = (destinations: number): Operation[] =>
  healthOperations({
    details: { destinations: { type: 'integer', minimum: 0 } },
    check: () => ({ ok: true, details: { destinations } }),
  });
