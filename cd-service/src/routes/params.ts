import { type ErrorDetail, type Parameter, pageParameters, parameterValidator } from 'service-kit';
import { DEFAULT_LIMIT, decodeCursor, type ListParams, orderFor } from '../cd/query.js';
import { FILTERS, MIN_YEAR, SORT_FIELDS, TEXT_PATTERN } from '../cd/schema.js';

export const idParameter: Parameter = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The CD id, a UUID (in any case)',
  schema: {
    type: 'string',
    pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  },
};

const readId = parameterValidator<{ id: string }>([idParameter], {
  summary: () => 'A CD id is a UUID such as 0b7c7f0e-8d4e-4f7a-9a53-6f0e2a1c5b3d',
  messages: { id: 'must be a UUID' },
});

/** The CD id of a route's path, as the service makes them (lower case); 400 before any store is asked. */
export function parseId(params: Record<string, string>): string {
  return readId(params).id.toLowerCase();
}

/** The largest year `before` takes: four digits, beyond any CD's year. */
const MAX_BEFORE_YEAR = 9999;
/**
 * The largest `offset`: a page by offset reads and skips every CD before it, so its cost grows
 * with the offset. Beyond it, pages are reached by the cursor of `Link: rel="next"`, which costs
 * the same on every page.
 */
const MAX_OFFSET = 10_000;
/** The longest `cursor`: a sort key of two texts of at most 200 characters, and an id. */
const MAX_CURSOR_LENGTH = 4096;

const SORTS = SORT_FIELDS.flatMap((field) => [field, `-${field}`]);

const query = (name: string, description: string, schema: Record<string, unknown>): Parameter => ({
  name,
  in: 'query',
  description,
  schema,
});

/**
 * The query parameters of `GET /cds`: the OpenAPI document shows them, and their schemas are
 * what the query is checked against.
 */
export const LIST_PARAMETERS: Parameter[] = [
  ...FILTERS.map(({ field }) =>
    query(
      field,
      `Only the CDs of this ${field}, matched exactly but ignoring case and surrounding spaces`,
      { type: 'string', minLength: 1, pattern: TEXT_PATTERN },
    ),
  ),
  query('before', `Only the CDs released before this year (${MIN_YEAR} to ${MAX_BEFORE_YEAR})`, {
    type: 'integer',
    minimum: MIN_YEAR,
    maximum: MAX_BEFORE_YEAR,
  }),
  query('fields', '`title`: each item is only `{"title"}`', { type: 'string', enum: ['title'] }),
  query('sort', 'The order, `-` first for descending; ties go by title, then id. Default `title`', {
    type: 'string',
    enum: SORTS,
  }),
  pageParameters.limit(`At most this many CDs (default ${DEFAULT_LIMIT})`),
  pageParameters.offset(
    `Skip this many CDs first (default 0, at most ${MAX_OFFSET.toLocaleString('en')}). To go further, follow \`Link: rel="next"\`: its \`cursor\` costs the same on every page`,
    MAX_OFFSET,
  ),
  query(
    'cursor',
    'Start after the CD this opaque value names: the `cursor` of a `Link: rel="next"`, given as it is, with the same `sort` (and usually the same filters). Not with `offset`',
    { type: 'string', minLength: 1, maxLength: MAX_CURSOR_LENGTH, pattern: '^[A-Za-z0-9_-]+$' },
  ),
];

const CURSOR_RULE =
  'is not a cursor of this list: give the `cursor` of a `Link: rel="next"` as it is, with the same `sort`';
const OFFSET_RULE = `must be an integer from 0 to ${MAX_OFFSET}; to go further, follow \`Link: rel="next"\`, whose \`cursor\` parameter starts the next page at the same cost on every page`;

/** The problems across parameters: a cursor that this list did not give, a cursor with an offset. */
function cursorRules(values: Readonly<Record<string, unknown>>): ErrorDetail[] {
  const { cursor, offset, sort } = values as ListParams;
  if (cursor === undefined) return [];
  if (offset !== undefined) {
    return [
      {
        field: 'cursor',
        message: 'cannot be combined with offset: the cursor says where the page starts',
      },
    ];
  }
  return decodeCursor(cursor, orderFor(sort)) ? [] : [{ field: 'cursor', message: CURSOR_RULE }];
}

/**
 * The query of `GET /cds`, trimmed and typed; a 400 naming each unknown, repeated or invalid
 * parameter otherwise.
 */
export const readListParams = parameterValidator<ListParams>(LIST_PARAMETERS, {
  messages: {
    ...Object.fromEntries(
      FILTERS.map(({ field }) => [field, 'must be a non-empty string without control characters']),
    ),
    offset: OFFSET_RULE,
    cursor: CURSOR_RULE,
  },
  rules: cursorRules,
});
