// The routes compared with their floor (issue 19's targets), grouped as RESULTS.md shows them.
import type { ServiceName } from './process.js';

export type Group = 'json' | 'pages' | 'cd-list';

export interface Route {
  service: ServiceName;
  /** The request's path and query. */
  path: string;
  group: Group;
  /** The same-work floor (`<service>/<name>`, see floors/). */
  floor: string;
  /** The least fraction of the floor's rate the service must reach; none: reported. */
  target?: number;
  /** A page that is random on every load: the floor's body cannot be the service's. */
  random?: boolean;
  /** Among the few routes of `--quick`. */
  quick?: boolean;
}

export const GROUPS: Record<Group, string> = {
  json: 'JSON answers',
  pages: 'Pages rendered per request',
  'cd-list': 'CD list on SQLite (61 CDs)',
};

const JSON_TARGET = 0.8;
const PAGE_TARGET = 0.7;

/** A route of `service`; its group and target follow from its floor's name (`...-page`). */
function route(
  service: ServiceName,
  path: string,
  floor: string,
  rest: Partial<Route> = {},
): Route {
  const page = floor.endsWith('-page');
  return {
    service,
    path,
    floor: `${service}/${floor}`,
    group: page ? 'pages' : 'json',
    target: page ? PAGE_TARGET : JSON_TARGET,
    ...rest,
  };
}
const games = (path: string, floor: string, rest: Partial<Route> = {}) =>
  route('games-service', path, floor, rest);
const travel = (path: string, floor: string, rest: Partial<Route> = {}) =>
  route('travel-service', path, floor, rest);

export const ROUTES: Route[] = [
  games('/api/games/top-rated', 'top-rated-json', { quick: true }),
  games('/api/games/1', 'game-json'),
  games('/api/games?q=zelda&limit=20', 'search-json'),
  travel('/api/itineraries/kyoto', 'itinerary-json'),
  games('/healthz', 'healthz-json'),
  route('cd-service', '/healthz', 'healthz-json'),
  games('/', 'home-page', { random: true }),
  games('/top-rated', 'top-rated-page', { quick: true }),
  games('/games/1', 'game-page'),
  travel('/', 'home-page', { random: true }),
  travel('/itineraries/kyoto', 'itinerary-page', { quick: true }),
  games('/search?q=zelda', 'search-page', { target: undefined }),
  route('cd-service', '/cds?limit=20', 'list-json', { group: 'cd-list', quick: true }),
];
