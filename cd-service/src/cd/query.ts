import { type Parameter, parameterValidator } from 'service-kit';
import {
  FILTERS,
  type FilterField,
  type FilterKey,
  filterKey,
  SORT_FIELDS,
  type SortField,
  TEXT_PATTERN,
} from './schema.js';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;
export const MAX_OFFSET = 1_000_000;
/** The largest year `before` takes: four digits, beyond any CD's year. */
export const MAX_BEFORE_YEAR = 9999;

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
  query('before', `Only the CDs released before this year (at most ${MAX_BEFORE_YEAR})`, {
    type: 'integer',
    maximum: MAX_BEFORE_YEAR,
  }),
  query('fields', '`title`: each item is only `{"title"}`', { type: 'string', enum: ['title'] }),
  query('sort', 'The order, `-` first for descending; ties go by title, then id. Default `title`', {
    type: 'string',
    enum: SORTS,
  }),
  query('limit', `At most this many CDs (default ${DEFAULT_LIMIT})`, {
    type: 'integer',
    minimum: 1,
    maximum: MAX_LIMIT,
  }),
  query('offset', 'Skip this many CDs first (default 0)', {
    type: 'integer',
    minimum: 0,
    maximum: MAX_OFFSET,
  }),
];

/** The validated query parameters of `GET /cds`. */
export type ListParams = Partial<Record<FilterField, string>> & {
  before?: number;
  fields?: 'title';
  sort?: string;
  limit?: number;
  offset?: number;
};

/**
 * The query of `GET /cds`, trimmed and typed; a 400 naming each unknown, repeated or invalid
 * parameter otherwise.
 */
export const readListParams = parameterValidator<ListParams>(LIST_PARAMETERS, {
  messages: Object.fromEntries(
    FILTERS.map(({ field }) => [field, 'must be a non-empty string without control characters']),
  ),
});

/** One condition; all of a query's conditions must hold. */
export type Condition =
  | { field: FilterKey; op: 'eq'; value: string }
  | { field: 'releaseYear'; op: 'lt'; value: number };

export interface OrderBy {
  field: SortField | 'id';
  direction: 1 | -1;
}

/** A list query that any store can run. */
export interface ListQuery {
  where: Condition[];
  /** The full order, ties broken by title then id, so that pages never overlap. */
  orderBy: OrderBy[];
  /** 'title': each item is only `{title}`. */
  fields: 'all' | 'title';
  limit: number;
  offset: number;
}

export function buildListQuery(params: ListParams): ListQuery {
  const where: Condition[] = [];
  for (const { field, key } of FILTERS) {
    const value = params[field];
    if (value !== undefined) where.push({ field: key, op: 'eq', value: filterKey(value) });
  }
  if (params.before !== undefined) {
    where.push({ field: 'releaseYear', op: 'lt', value: params.before });
  }
  const sort = params.sort ?? 'title';
  const descending = sort.startsWith('-');
  const sortField = (descending ? sort.slice(1) : sort) as SortField;
  const orderBy: OrderBy[] = [{ field: sortField, direction: descending ? -1 : 1 }];
  if (sortField !== 'title') orderBy.push({ field: 'title', direction: 1 });
  orderBy.push({ field: 'id', direction: 1 });
  return {
    where,
    orderBy,
    fields: params.fields ?? 'all',
    limit: params.limit ?? DEFAULT_LIMIT,
    offset: params.offset ?? 0,
  };
}
