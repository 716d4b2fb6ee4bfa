// The routes measured against plain Koa replaying their bytes and a bare node:http replay,
// grouped as RESULTS.md shows them.
import type { ServiceName } from './process.js';

export type Group = 'json' | 'pages' | 'cd-list';

export interface Route {
  service: ServiceName;
  /** The request's path and query. */
  path: string;
  group: Group;
  /** Among the few routes of `--quick`. */
  quick?: boolean;
}

export const GROUPS: Record<Group, string> = {
  json: 'JSON answers',
  pages: 'Pages rendered per request',
  'cd-list': 'CD list on SQLite (61 CDs)',
};

const games = (path: string, group: Group, quick = false): Route => ({
  service: 'games-service',
  path,
  group,
  quick,
});
const travel = (path: string, group: Group, quick = false): Route => ({
  service: 'travel-service',
  path,
  group,
  quick,
});

export const ROUTES: Route[] = [
  games('/api/games/top-rated', 'json', true),
  games('/api/games/1', 'json'),
  games('/api/games?q=zelda&limit=20', 'json'),
  travel('/api/itineraries/kyoto', 'json'),
  games('/healthz', 'json'),
  { service: 'cd-service', path: '/healthz', group: 'json' },
  games('/', 'pages'),
  games('/top-rated', 'pages', true),
  games('/games/1', 'pages'),
  travel('/', 'pages'),
  travel('/itineraries/kyoto', 'pages', true),
  games('/search?q=zelda', 'pages'),
  { service: 'cd-service', path: '/cds?limit=20', group: 'cd-list', quick: true },
];
