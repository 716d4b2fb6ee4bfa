import { type ApiInfo, healthOperations, type Operation } from 'service-kit';
import type { Catalogue } from '../catalogue/catalogue.js';

export const API_INFO: ApiInfo = {
  title: 'Game Shelf API',
  version: '1.0.0',
  description:
    'A read-only catalogue of video games that can be searched. Lists are bare arrays; errors are `{"error", "status"}` objects.',
};

/** GET /healthz: up, with how many games it holds; /livez, and /readyz ready until the process stops. */
export const gamesHealth = (catalogue: Catalogue): Operation[] =>
  healthOperations({
    details: { games: { type: 'integer', minimum: 0 } },
    check: () => ({ ok: true, details: { games: catalogue.size } }),
  });
