import type { Catalogue } from '../catalogue/catalogue.js';

/** What GET /healthz reports: up, with how many games it holds (the kit's probes, README.md). */
export const gamesHealth = (catalogue: Catalogue) => ({
  details: { games: { type: 'integer', minimum: 0 } },
  check: () => ({ ok: true, details: { games: catalogue.size } }),
});
