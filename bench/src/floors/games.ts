// games-service's routes, as a minimal app does their work: the catalogue and its search from
// the service's compiled domain code, its compiled templates. The counts and page locals mirror
// games-service/src/routes (which a floor may not import); the bench checks that each floor
// answers the service's very body, so a drift shows in RESULTS.md.
import { join } from 'node:path';
import { repoRoot } from '../process.js';
import { type FloorSet, fromDist, pageRenderer, sendJson } from './floor.js';

interface Game {
  id: number;
  title: string;
  shortDescription: string;
}
interface Catalogue {
  readonly games: readonly Game[];
  readonly genres: readonly string[];
  readonly size: number;
  byId(id: number): Game | undefined;
  topRated(count: number): readonly Game[];
  genreSize(genre: string): number;
  recommendations(game: Game): Game[];
  search(query: Record<string, unknown>): { total: number; games: Game[] };
  sample(count: number, random: () => number): Game[];
}

const TOP_RATED_API_COUNT = 10;
const HOME_GAME_COUNT = 9;
const TOP_RATED_PAGE_COUNT = 15;
const SEARCH_PAGE_SIZE = 24;
const SEARCH_ORDERS = [
  { sort: '', label: 'Best rated first' },
  { sort: '-rating', label: 'Highest rating first' },
  { sort: 'rating', label: 'Lowest rating first' },
  { sort: 'title', label: 'Title, A to Z' },
  { sort: '-title', label: 'Title, Z to A' },
  { sort: '-releaseYear', label: 'Newest first' },
  { sort: 'releaseYear', label: 'Oldest first' },
  { sort: '-reviewCount', label: 'Most reviewed first' },
  { sort: 'reviewCount', label: 'Least reviewed first' },
];

async function loadDomain() {
  const { loadGames } = await fromDist<{ loadGames: (file: string) => Game[] }>(
    'games-service',
    'catalogue/load.js',
  );
  const { Catalogue } = await fromDist<{ Catalogue: new (games: Game[]) => Catalogue }>(
    'games-service',
    'catalogue/catalogue.js',
  );
  const { toSummary } = await fromDist<{ toSummary: (game: Game) => unknown }>(
    'games-service',
    'catalogue/game.js',
  );
  const catalogue = new Catalogue(
    loadGames(process.env.GAMES_FILE || join(repoRoot, 'seeds', 'games.json')),
  );
  return { catalogue, toSummary };
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

export const gamesFloors: FloorSet = async (captured) => {
  const { catalogue, toSummary } = await loadDomain();
  const render = await pageRenderer('games-service', captured);
  const gameOf = (id: string | undefined) => {
    const game = catalogue.byId(Number(id));
    if (!game) throw new Error(`no game ${id}`);
    return game;
  };
  return {
    'healthz-json': {
      path: '/healthz',
      handle: (ctx) => sendJson(ctx, { status: 'ok', games: catalogue.size }),
    },
    'top-rated-json': {
      path: '/api/games/top-rated',
      handle: (ctx) => sendJson(ctx, catalogue.topRated(TOP_RATED_API_COUNT).map(toSummary)),
    },
    'search-json': {
      path: '/api/games',
      handle: (ctx) => {
        const { total, games } = catalogue.search({
          sort: 'id',
          q: text(ctx.query.q),
          limit: Number(ctx.query.limit),
        });
        ctx.set('X-Total-Count', String(total));
        sendJson(ctx, games.map(toSummary));
      },
    },
    'game-json': {
      path: '/api/games/:id',
      handle: (ctx) => sendJson(ctx, gameOf(ctx.params.id)),
    },
    'home-page': {
      path: '/',
      handle: (ctx) =>
        render(ctx, 'home', {
          title: 'Discover games',
          games: catalogue.sample(HOME_GAME_COUNT, Math.random),
        }),
    },
    'top-rated-page': {
      path: '/top-rated',
      handle: (ctx) =>
        render(ctx, 'top-rated', {
          title: 'Top rated',
          games: catalogue.topRated(TOP_RATED_PAGE_COUNT),
        }),
    },
    'game-page': {
      path: '/games/:id',
      handle: (ctx) => {
        const game = gameOf(ctx.params.id);
        render(ctx, 'game', {
          title: game.title,
          description: game.shortDescription,
          game,
          recommendations: catalogue.recommendations(game),
        });
      },
    },
    'search-page': {
      path: '/search',
      handle: (ctx) => {
        const q = text(ctx.query.q)?.trim();
        const result = catalogue.search({ q, limit: SEARCH_PAGE_SIZE, offset: 0 });
        const title = q ? `Games matching “${q}”` : 'All games';
        render(ctx, 'search', {
          title,
          heading: title,
          description: 'Search the games on the shelf by title, developer and genre.',
          q: q ?? '',
          genre: '',
          sort: '',
          orders: SEARCH_ORDERS,
          genres: catalogue.genres.map((name) => ({
            name,
            count: catalogue.genreSize(name),
          })),
          total: result.total,
          games: result.games,
          page: 1,
          pages: Math.max(1, Math.ceil(result.total / SEARCH_PAGE_SIZE)),
          first: 1,
        });
      },
    },
  };
};
