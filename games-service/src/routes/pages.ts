import { CACHE_CONTROL, type Context, NotFound, parameterValidator, Router } from 'service-kit';
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
/** Results per search page: rows of 3, 2 or 1 cards all end full. */
export const SEARCH_PAGE_SIZE = 24;

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
>(
  [
    SEARCH_PARAMETERS.q,
    SEARCH_PARAMETERS.genre,
    SEARCH_PARAMETERS.sort,
    {
      name: 'page',
      in: 'query',
      description: 'The page of results, from 1',
      schema: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    },
  ],
  { ...SEARCH_READING, unknown: 'ignore' },
);

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
    .get('/hidden-gems', (ctx) =>
      page(ctx, 'hidden-gems.pug', {
        title: 'Hidden gems',
        games: catalogue.hiddenGems(),
        minRating: HIDDEN_GEM_MIN_RATING,
        maxReviews: HIDDEN_GEM_MAX_REVIEWS,
      }),
    )
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
      const pages = Math.max(1, Math.ceil(result.total / SEARCH_PAGE_SIZE));
      if (pageNumber > pages) {
        throw new NotFound(
          `There is no page ${pageNumber} of these results: they fill ${pages === 1 ? '1 page' : `${pages} pages`}.`,
        );
      }
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
        page: pageNumber,
        pages,
        first: (pageNumber - 1) * SEARCH_PAGE_SIZE + 1,
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
