/**
 * What GET /healthz reports: up, with how many destinations it has itineraries for (the kit's
 * probes, README.md).
 */
export const travelHealth = (destinations: number) => ({
  details: { destinations: { type: 'integer', minimum: 0 } },
  check: () => ({ ok: true, details: { destinations } }),
});
