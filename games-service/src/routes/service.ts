import { healthOperation, type Operation } from 'service-kit';
import type { Catalogue } from '../catalogue/catalogue.js';

/** GET /healthz: up, with how many games it holds. */
export const gamesHealth = (catalogue: Catalogue): Operation =>
  healthOperation({
    details: { games: { type: 'integer', minimum: 0 } },
    check: () => ({ ok: true, details: { games: catalogue.size } }),
  });
