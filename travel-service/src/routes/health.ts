import { healthOperations, type Operation } from 'service-kit';

/**
 * GET /healthz: up, with how many destinations it has itineraries for; /livez, and /readyz
 * ready until the process stops.
 */
export const travelHealth = (destinations: number): Operation[] =>
  healthOperations({
    details: { destinations: { type: 'integer', minimum: 0 } },
    check: () => ({ ok: true, details: { destinations } }),
  });
