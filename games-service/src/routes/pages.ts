import {
  CACHE_CONTROL,
  type Context,
  NotFound,
  type Parameter,
  parameterValidator,
  Router,
} from 'service-kit';
import {
  type Catalogue,
  HIDDEN_GEM_MAX_REVIEWS,
  HIDDEN_GEM_MIN_RATING,
} from '../catalogue/catalogue.js';
import { coverSvg, coverVersion } from '../catalogue/cover.js';
import type { Game } from '../catalogue/game.js';
import type { SearchQuery } from '../catalogue/search.js';
import { readGameId } from './params.js';
import { SEARCH_PARAMETERS, SEARCH_READING } from './search-params.js';

/** Games the home page picks at random: three full rows of three cards on a wide screen. */
export const HOME_GAME_COUNT = 9;
/** Games the top-rated page lists, best first: five full rows of three cards. */
export const TOP_RATED_PAGE_COUNT = 15;
/** Games per page of a list (search results, hidden gems): rows of 3, 2 or 1 cards all end full. */
export const SEARCH_PAGE_SIZE = 24;

const pageParameter: Parameter = {
  name: 'page',
  in: 'query',
  description: 'The page of the list, from 1',
  schema: { type: 'integer', minimum: 1, maximum: 1_000_000 },
};

/** The page of a list a URL asks for; other parameters are ignored. */
const readPageNumber = parameterValidator<{ page?: number }>([pageParameter], {
  unknown: 'ignore',
});

/**
 * The page `number` of a list of `total` games: how many pages it has (one, when empty), and
 * the position of its first game from 1; a 404 for a page past the last.
 */
function pageOf(number: number, total: number, what: string) {
  const pages = Math.max(1, Math.ceil(total / SEARCH_PAGE_SIZE));
  if (number > pages) {
    throw new NotFound(
      `There is no page ${number} of ${what}: they fill ${pages === 1 ? '1 page' : `${pages} pages`}.`,
    );
  }
  const offset = (number - 1) * SEARCH_PAGE_SIZE;
  return { page: number, pages, offset, first: offset + 1 };
}

/**
 * The orders the search page offers: the default (no `sort`: best rated, more reviews breaking
 * ties), then every sort key, so that the order a URL asks for is the one shown as chosen.
 */
export const SEARCH_ORDERS = [
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

/** What the search page reads from its URL; other parameters are ignored. */
const readSearchPage = parameterValidator<
  Pick<SearchQuery, 'q' | 'genre' | 'sort'> & { page?: number }
>([SEARCH_PARAMETERS.q, SEARCH_PARAMETERS.genre, SEARCH_PARAMETERS.sort, pageParameter], {
  ...SEARCH_READING,
  unknown: 'ignore',
});

/** The server-rendered pages. */
export function pageRoutes(catalogue: Catalogue, random: () => number): Router {
  const page = async (
    ctx: Context,
    view: string,
    locals: Record<string, unknown>,
    cacheControl: string = CACHE_CONTROL.stable,
  ) => {
    ctx.set('Cache-Control', cacheControl);
    await ctx.render(view, locals);
  };
  /** A page for an id that is not one is missing, like a page for an unknown game. */
  const gameOr404 = (ctx: Context): Game => {
    let game: Game | undefined;
    try {
      game = catalogue.byId(readGameId(ctx.params).id);
    } catch {}
    if (!game) throw new NotFound('We could not find that game.');
    return game;
  };

  return new Router()
    .get('/', (ctx) =>
      page(
        ctx,
        'home.pug',
        { title: 'Discover games', games: catalogue.sample(HOME_GAME_COUNT, random) },
        CACHE_CONTROL.noStore,
      ),
    )
    .get('/top-rated', (ctx) =>
      page(ctx, 'top-rated.pug', {
        title: 'Top rated',
        games: catalogue.topRated(TOP_RATED_PAGE_COUNT),
      }),
    )
    .get('/hidden-gems', (ctx) => {
      const gems = catalogue.hiddenGems();
      const { page: number = 1 } = readPageNumber(ctx.query);
      const paging = pageOf(number, gems.length, 'hidden gems');
      return page(ctx, 'hidden-gems.pug', {
        title: number > 1 ? `Hidden gems, page ${number}` : 'Hidden gems',
        games: gems.slice(paging.offset, paging.offset + SEARCH_PAGE_SIZE),
        total: gems.length,
        ...paging,
        minRating: HIDDEN_GEM_MIN_RATING,
        maxReviews: HIDDEN_GEM_MAX_REVIEWS,
      });
    })
    .get('/random', (ctx) => {
      const [game] = catalogue.sample(1, random);
      ctx.set('Cache-Control', CACHE_CONTROL.noStore);
      ctx.redirect(game ? `/games/${game.id}` : '/');
    })
    .get('/search', (ctx) => {
      const { q, genre, sort, page: pageNumber = 1 } = readSearchPage(ctx.query);
      const result = catalogue.search({
        q,
        genre,
        sort,
        limit: SEARCH_PAGE_SIZE,
        offset: (pageNumber - 1) * SEARCH_PAGE_SIZE,
      });
      const paging = pageOf(pageNumber, result.total, 'these results');
      const shownGenre =
        genre && catalogue.genres.find((g) => g.toLowerCase() === genre.toLowerCase());
      // The view words its title from the query, genre and page.
      return page(ctx, 'search.pug', {
        description: 'Search the games on the shelf by title, developer and genre.',
        q: q ?? '',
        genre: shownGenre ?? genre ?? '',
        sort: sort ?? '',
        orders: SEARCH_ORDERS,
        genres: catalogue.genres.map((name) => ({ name, count: catalogue.genreSize(name) })),
        total: result.total,
        games: result.games,
        ...paging,
      });
    })
    .get('/games/:id/cover.svg', (ctx) => {
      const game = gameOr404(ctx);
      ctx.set(
        'Cache-Control',
        ctx.query.v === coverVersion(game) ? CACHE_CONTROL.immutable : CACHE_CONTROL.oneDay,
      );
      ctx.type = 'image/svg+xml';
      ctx.body = coverSvg(game);
    })
    .get('/games/:id', (ctx) => {
      const game = gameOr404(ctx);
      return page(ctx, 'game.pug', {
        title: game.title,
        description: game.shortDescription,
        game,
        recommendations: catalogue.recommendations(game),
      });
    });
}
