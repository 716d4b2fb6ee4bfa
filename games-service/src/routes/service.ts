import { type ApiInfo, healthOperation, type Operation } from 'service-kit';

export const API_INFO: ApiInfo = {
  title: 'Game Shelf API',
  version: '1.0.0',
  description:
    'A read-only catalogue of video games. Lists are bare arrays; errors are `{"error", "status"}` objects.',
};

/** GET /healthz: up, with how many games it holds. */
export const gamesHealth = (games: number): Operation =>
  healthOperation({
    facts: { games: { type: 'integer', minimum: 0 } },
    check: () => ({ ok: true, facts: { games } }),
  });
