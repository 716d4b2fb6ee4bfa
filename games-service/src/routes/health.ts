import { healthOperations, type Operation } from 'service-kit';
import type { Catalogue } from '../catalogue/catalogue.js';

/** GET /healthz: up, with how many games it holds; /livez, and /readyz ready until the process stops. */
export const gamesHealth = (catalogue: Catalogue): Operation[] =>
  healthOperations({
    details: { games: { type: 'integer', minimum: 0 } },
    check: () => ({ ok: true, details: { games: catalogue.size } }),
  });
