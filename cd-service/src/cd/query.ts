import {
  FILTERS,
  type FilterField,
  type FilterKey,
  filterKey,
  SORT_FIELDS,
  type SortField,
  TEXT_PATTERN,
} from './schema.js';
import { ajv, type Checked, type FieldError, toDetails, trimStrings } from './validate.js';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;
export const MAX_OFFSET = 1_000_000;

const SORTS = SORT_FIELDS.flatMap((field) => [field, `-${field}`]);

/**
 * The query parameters of `GET /cds`: each one's schema (compiled into the validator and
 * shown in the OpenAPI document), what to say when it is wrong, and what it does.
 */
export const LIST_PARAMS: Record<string, { schema: object; message: string; description: string }> =
  {
    ...Object.fromEntries(
      FILTERS.map(({ field }) => [
        field,
        {
          schema: { type: 'string', minLength: 1, pattern: TEXT_PATTERN },
          message: 'must be a non-empty string without control characters',
          description: `Only the CDs of this ${field}, matched exactly but ignoring case and surrounding spaces`,
        },
      ]),
    ),
    before: {
      schema: { type: 'integer' },
      message: 'must be an integer',
      description: 'Only the CDs released before this year',
    },
    fields: {
      schema: { enum: ['title'] },
      message: 'must be title',
      description: '`title`: each item is only `{"title"}`',
    },
    sort: {
      schema: { enum: SORTS },
      message: `must be one of ${SORTS.join(', ')}`,
      description:
        'The order, `-` first for descending; ties go by title, then id. Default `title`',
    },
    limit: {
      schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT },
      message: `must be an integer from 1 to ${MAX_LIMIT}`,
      description: `At most this many CDs (default ${DEFAULT_LIMIT})`,
    },
    offset: {
      schema: { type: 'integer', minimum: 0, maximum: MAX_OFFSET },
      message: `must be an integer from 0 to ${MAX_OFFSET}`,
      description: 'Skip this many CDs first (default 0)',
    },
  };
const INTEGER_PARAMS = ['before', 'limit', 'offset'];
const PARAM_NAMES = Object.keys(LIST_PARAMS);

export const listParamsSchema = {
  type: 'object',
  properties: Object.fromEntries(Object.entries(LIST_PARAMS).map(([name, p]) => [name, p.schema])),
  additionalProperties: false,
};
const validateParams = ajv.compile(listParamsSchema);

/** The validated query parameters of `GET /cds`. */
export type ListParams = Partial<Record<FilterField, string>> & {
  before?: number;
  fields?: 'title';
  sort?: string;
  limit?: number;
  offset?: number;
};

/** Checks the raw query (a repeated key arrives as an array): one value per known key. */
export function checkListParams(
  raw: Record<string, string | string[] | undefined>,
): Checked<ListParams> {
  const repeated: FieldError[] = Object.entries(raw)
    .filter(([, value]) => Array.isArray(value))
    .map(([field]) => ({ field, message: 'must be given once' }));
  if (repeated.length > 0) return { ok: false, details: repeated };
  const params = trimStrings(raw);
  for (const name of INTEGER_PARAMS) {
    const value = params[name];
    if (typeof value === 'string' && /^-?[0-9]{1,15}$/.test(value)) params[name] = Number(value);
  }
  if (validateParams(params)) return { ok: true, value: params as ListParams };
  const messageFor = (field: string) =>
    Object.hasOwn(LIST_PARAMS, field) ? (LIST_PARAMS[field]?.message ?? '') : 'is not valid';
  return {
    ok: false,
    details: toDetails(validateParams.errors ?? [], messageFor, {
      allowed: PARAM_NAMES.join(', '),
    }),
  };
}

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
