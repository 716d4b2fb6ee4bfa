import { type ErrorDetail, type Parameter, pageParameters, parameterValidator } from 'service-kit';
import { type SearchQuery, SORT_KEYS } from '../catalogue/search.js';

export const MAX_QUERY_LENGTH = 200;
const MAX_OFFSET = 1_000_000_000;
/** Release years a game may have (the seed schema's bounds). */
const YEARS = { minimum: 1950, maximum: 2100 };

const query = (name: string, description: string, schema: Record<string, unknown>): Parameter => ({
  name,
  in: 'query',
  description,
  schema,
});

/** Text as a search box sends it: not too long, and no control characters. */
const TEXT = { type: 'string', maxLength: MAX_QUERY_LENGTH, pattern: '^\\P{Cc}*$' };
const year = (name: string, description: string) =>
  query(name, description, { type: 'integer', ...YEARS });

/** The parameters of the search, shared by GET /api/games and the search page. */
export const SEARCH_PARAMETERS = {
  q: query(
    'q',
    'Words or word prefixes that must all start a word of the title or developer, as in a search box: `zelda breath` or `pokem`. Case and accents are ignored.',
    TEXT,
  ),
  genre: query('genre', 'Only games of this genre, ignoring case: `RPG`', TEXT),
  minRating: query(
    'minRating',
    'Only games rated at least this, from 0 to 10: `8.5`. Unrated games are left out.',
    { type: 'number', minimum: 0, maximum: 10 },
  ),
  year: year('year', 'Only games released this year; not with `from` or `to` (a 400)'),
  from: year('from', 'Only games released this year or later; not after `to` (a 400)'),
  to: year('to', 'Only games released this year or earlier; not before `from` (a 400)'),
  sort: query(
    'sort',
    'The order: `rating`, `title`, `releaseYear` or `reviewCount`, with `-` first for descending (`-rating`: best first). Unrated games come last either way; ties go by id. Without it, games come by id.',
    { type: 'string', enum: [...SORT_KEYS] },
  ),
};

/** The parameters of GET /api/games: the search, then paging. */
export const LIST_PARAMETERS: Parameter[] = [
  ...Object.values(SEARCH_PARAMETERS),
  pageParameters.limit('At most this many games (default: all of them)'),
  pageParameters.offset('Skip this many matching games first (default 0)', MAX_OFFSET),
];

/**
 * How the search reads its parameters, on the API and the page: what a wrong value is told
 * beyond the schema's own words, and the fields a search form sends empty when nothing is
 * chosen (empty, they are no filter and the default order).
 */
export const SEARCH_READING = {
  messages: {
    q: { pattern: 'must not contain control characters' },
    genre: { pattern: 'must not contain control characters' },
    minRating: 'must be a number from 0 to 10, such as 8.5',
  },
  emptyIsAbsent: ['q', 'genre', 'sort'],
};

/** The release-year rules the schemas cannot say: one year, or a range that is not reversed. */
function yearRules({ year, from, to }: Readonly<Record<string, unknown>>): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (year !== undefined && (from !== undefined || to !== undefined)) {
    problems.push({ field: 'year', message: 'cannot be combined with from or to' });
  }
  if ((from as number) > (to as number)) {
    problems.push({ field: 'from', message: 'must not be after to' });
  }
  return problems;
}

/**
 * The query of GET /api/games, typed; a 400 naming each unknown, repeated or invalid
 * parameter otherwise.
 */
export const readSearchQuery = parameterValidator<SearchQuery & Record<string, unknown>>(
  LIST_PARAMETERS,
  {
    ...SEARCH_READING,
    rules: yearRules,
  },
);
