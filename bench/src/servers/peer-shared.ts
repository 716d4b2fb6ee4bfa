// What the two peer stacks (peer-koa.ts, peer-fastify.ts) take from games-service: its seed
// games, its Cache-Control for them, its logger's level and destination, and the switch that
// turns its request lines on or off (LOG_REQUESTS, which the bench sets to false for ours).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type DestinationStream, pino } from 'pino';
import type { Game } from '../../../games-service/src/catalogue/game.js';

export type { Game };

/** games-service's default seed file; GAMES_FILE names another, as it does for the service. */
const SEED = fileURLToPath(new URL('../../../seeds/games.json', import.meta.url));

/**
 * The seed's games by id, parsed as they are: games-service also checks each against its schema
 * at start (and builds its indexes), which costs start time, not time per request.
 */
export function loadGames(file = process.env.GAMES_FILE || SEED): Map<number, Game> {
  const games = JSON.parse(readFileSync(file, 'utf8')) as Game[];
  return new Map(games.map((game) => [game.id, game]));
}

/** games-service's Cache-Control for data fixed while the process runs (its CACHE_CONTROL.stable). */
export const CACHE_CONTROL = 'public, max-age=300';

/**
 * Whether each request gets a log line: LOG_REQUESTS as games-service reads it (`true` unless it
 * says `false`). The bench starts every server with LOG_REQUESTS=false, as it does ours.
 */
export const logRequests = process.env.LOG_REQUESTS !== 'false';

/**
 * games-service's logger destination (service-kit's createLogger): JSON lines on stdout written
 * asynchronously (pino's SonicBoom, `sync: false`), at pino's default level, `info`. The bench
 * reads each server's stdout through a pipe, ours included.
 */
export const LOG_LEVEL = 'info';
export const logDestination = (): DestinationStream => pino.destination({ dest: 1, sync: false });

/** An id as games-service takes it: a whole number from 1 to 2^53 - 1 in decimal, else undefined. */
export function gameId(raw: string): number | undefined {
  if (!/^[1-9][0-9]{0,15}$/.test(raw)) return undefined;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : undefined;
}
