import { BadRequest, type ErrorDetail, type Parameter } from 'service-kit';
import { type SearchQuery, SORT_KEYS } from '../catalogue/search.js';

export const MAX_QUERY_LENGTH = 200;
export const MAX_LIMIT = 1000;
export const MAX_OFFSET = 1_000_000_000;
/** Release years a game may have (the seed schema's bounds). */
const YEARS = { minimum: 1950, maximum: 2100 };

/** A raw query as Koa parses it: a repeated key arrives as an array. */
export type RawQuery = Record<string, string | string[] | undefined>;

/** One query parameter: documented by `parameter`, read by `read` (an error message when wrong). */
export interface QueryParam {
  parameter: Parameter;
  read: (raw: string) => { value: unknown } | { error: string };
}

const query = (name: string, description: string, schema: Record<string, unknown>) =>
  ({ name, in: 'query', description, schema }) as const;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

const text = (raw: string) =>
  raw.length > MAX_QUERY_LENGTH
    ? { error: `must be at most ${MAX_QUERY_LENGTH} characters` }
    : CONTROL_CHARACTER.test(raw)
      ? { error: 'must not contain control characters' }
      : { value: raw.trim() };

export function integerIn(minimum: number, maximum: number) {
  return (raw: string) => {
    const value = /^-?[0-9]{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
    return value >= minimum && value <= maximum
      ? { value }
      : { error: `must be an integer from ${minimum} to ${maximum}` };
  };
}

const year = integerIn(YEARS.minimum, YEARS.maximum);

/** The parameters of the search, shared by GET /api/games and the search page. */
export const SEARCH_PARAMS = {
  q: {
    parameter: query(
      'q',
      'Words or word prefixes that must all start a word of the title or developer, as in a search box: `zelda breath` or `pokem`. Case and accents are ignored.',
      { type: 'string', maxLength: MAX_QUERY_LENGTH },
    ),
    read: text,
  },
  genre: {
    parameter: query('genre', 'Only games of this genre, ignoring case: `RPG`', {
      type: 'string',
      maxLength: MAX_QUERY_LENGTH,
    }),
    read: text,
  },
  minRating: {
    parameter: query(
      'minRating',
      'Only games rated at least this, from 0 to 10: `8.5`. Unrated games are left out.',
      { type: 'number', minimum: 0, maximum: 10 },
    ),
    read: (raw) => {
      const value = /^[0-9]{1,2}(\.[0-9]{1,3})?$/.test(raw) ? Number(raw) : Number.NaN;
      return value >= 0 && value <= 10
        ? { value }
        : { error: 'must be a number from 0 to 10, such as 8.5' };
    },
  },
  year: {
    parameter: query('year', 'Only games released this year; not with `from` or `to`', {
      type: 'integer',
      ...YEARS,
    }),
    read: year,
  },
  from: {
    parameter: query('from', 'Only games released this year or later', {
      type: 'integer',
      ...YEARS,
    }),
    read: year,
  },
  to: {
    parameter: query('to', 'Only games released this year or earlier', {
      type: 'integer',
      ...YEARS,
    }),
    read: year,
  },
  sort: {
    parameter: query(
      'sort',
      'The order: `rating`, `title`, `releaseYear` or `reviewCount`, with `-` first for descending (`-rating`: best first). Unrated games come last either way; ties go by id. Without it, games come by id.',
      { type: 'string', enum: [...SORT_KEYS] },
    ),
    read: (raw) =>
      (SORT_KEYS as readonly string[]).includes(raw)
        ? { value: raw }
        : { error: `must be one of ${SORT_KEYS.join(', ')}` },
  },
} satisfies Record<string, QueryParam>;

/** Paging for the API: `limit` and `offset`. */
export const PAGING_PARAMS = {
  limit: {
    parameter: query('limit', `At most this many games (default: all of them)`, {
      type: 'integer',
      minimum: 1,
      maximum: MAX_LIMIT,
    }),
    read: integerIn(1, MAX_LIMIT),
  },
  offset: {
    parameter: query('offset', 'Skip this many matching games first (default 0)', {
      type: 'integer',
      minimum: 0,
      maximum: MAX_OFFSET,
    }),
    read: integerIn(0, MAX_OFFSET),
  },
} satisfies Record<string, QueryParam>;

/** Parameters a search form sends empty when nothing is chosen: empty, they are absent. */
const EMPTY_IS_ABSENT = new Set(['q', 'genre', 'sort']);

/**
 * Reads the parameters a route knows, each at most once and valid, into the query the search
 * takes (an empty `q`, `genre` or `sort` is no filter and the default order, as a search form
 * sends them). `strict`: any other
 * parameter is a problem too (the API); a page ignores them. Throws a 400 naming every problem.
 */
export function readSearchQuery(
  raw: RawQuery,
  params: Record<string, QueryParam>,
  { strict }: { strict: boolean },
): SearchQuery & Record<string, unknown> {
  const problems: ErrorDetail[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    const param = Object.hasOwn(params, name) ? params[name] : undefined;
    if (!param) {
      if (strict) {
        problems.push({
          field: name,
          message: `is not a parameter here; the parameters are ${Object.keys(params).join(', ')}`,
        });
      }
    } else if (Array.isArray(value)) {
      problems.push({ field: name, message: 'must be given once' });
    } else if (value !== undefined && !(value === '' && EMPTY_IS_ABSENT.has(name))) {
      const read = param.read(value);
      if ('error' in read) problems.push({ field: name, message: read.error });
      else values[name] = read.value;
    }
  }
  if (values.year !== undefined && (values.from !== undefined || values.to !== undefined)) {
    problems.push({ field: 'year', message: 'cannot be combined with from or to' });
  }
  if ((values.from as number) > (values.to as number)) {
    problems.push({ field: 'from', message: 'must not be after to' });
  }
  if (problems.length > 0) {
    const summary = problems.map((p) => `${p.field} ${p.message}`).join('; ');
    throw new BadRequest(`Invalid query: ${summary}`, problems);
  }
  for (const name of EMPTY_IS_ABSENT) if (values[name] === '') delete values[name];
  return values as SearchQuery & Record<string, unknown>;
}
