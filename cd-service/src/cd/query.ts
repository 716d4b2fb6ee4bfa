import {
  FIELDS,
  FILTERS,
  type FilterField,
  type FilterKey,
  filterKey,
  ID_PATTERN,
  type SortField,
} from './schema.js';

/** CDs a page holds when `limit` is not given. */
export const DEFAULT_LIMIT = 100;
/** The order of a list without `sort`: by title, then id. */
export const DEFAULT_SORT = 'title';

/**
 * What a list of CDs asks for: the CDs of an artist, of a genre, released before a year; only
 * their titles; an order (a field, `-` first for descending); a page, by offset or after the CD a
 * cursor names.
 */
export type ListParams = Partial<Record<FilterField, string>> & {
  before?: number;
  fields?: 'title';
  sort?: string;
  limit?: number;
  offset?: number;
  cursor?: string;
};

/** A property a list filters or sorts on. */
export type ListField = FilterKey | SortField | 'id';

/**
 * One condition; all of a query's conditions must hold. The filters are equalities on the keys
 * and `lt` on the year; a keyset page adds equalities and one `gt` or `lt` on the sort key.
 */
export interface Condition {
  field: ListField;
  op: 'eq' | 'lt' | 'gt';
  value: string | number;
}

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
  /** Keyset paging: the page starts after the CD of this sort key (its values of orderBy). */
  after?: SortKey;
}

/** The values of a CD for each field of a list's order: where a keyset page starts after. */
export type SortKey = (string | number)[];

/** The full order of a sort: `-` reverses all of it, ties included (so one index serves both). */
export function orderFor(sort: string = DEFAULT_SORT): OrderBy[] {
  const descending = sort.startsWith('-');
  const field = (descending ? sort.slice(1) : sort) as SortField;
  const direction = descending ? -1 : 1;
  const fields: (SortField | 'id')[] = field === 'title' ? ['title', 'id'] : [field, 'title', 'id'];
  return fields.map((name) => ({ field: name, direction }));
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
  const orderBy = orderFor(params.sort);
  const query: ListQuery = {
    where,
    orderBy,
    fields: params.fields ?? 'all',
    limit: params.limit ?? DEFAULT_LIMIT,
    offset: params.offset ?? 0,
  };
  if (params.cursor !== undefined) {
    const after = decodeCursor(params.cursor, orderBy);
    if (!after) throw new Error('buildListQuery needs a cursor of its sort (decodeCursor)');
    query.after = after;
  }
  return query;
}

/**
 * The parts of a keyset page, in the list's order: the CDs after the key `after` are those with
 * the same first i values and a later (i+1)-th, for i from the last field down to none. Each part
 * is one range of an index in the list's order: run in turn, they give the page at the same cost
 * wherever it starts. Without `after`, the one part is the list's filters.
 */
export function keysetParts({ where, orderBy, after }: ListQuery): Condition[][] {
  if (!after) return [where];
  return orderBy
    .map((order, i) => [
      ...where,
      ...orderBy.slice(0, i).map((same, j) => ({
        field: same.field,
        op: 'eq' as const,
        value: after[j] as string | number,
      })),
      { field: order.field, op: order.direction === 1 ? 'gt' : 'lt', value: after[i] } as Condition,
    ])
    .reverse();
}

/** The sort key of a CD (a row, or a document whose id is `_id`) in a list's order. */
export function sortKeyOf(record: Record<string, unknown>, orderBy: OrderBy[]): SortKey {
  return orderBy.map(({ field }) =>
    field === 'id' ? String(record.id ?? record._id) : (record[field] as string | number),
  );
}

/**
 * Reads one page: part after part (keysetParts), each asked for what the page still lacks plus
 * one, so that one more CD tells that a next page exists. `next` is the key of the page's last CD
 * when one does.
 */
export async function readPage<R extends Record<string, unknown>>(
  query: ListQuery,
  read: (where: Condition[], limit: number, offset: number) => R[] | Promise<R[]>,
): Promise<{ rows: R[]; next: SortKey | undefined }> {
  const rows: R[] = [];
  for (const where of keysetParts(query)) {
    rows.push(
      ...(await read(where, query.limit + 1 - rows.length, query.after ? 0 : query.offset)),
    );
    if (rows.length > query.limit) break;
  }
  const more = rows.length > query.limit;
  if (more) rows.length = query.limit;
  const last = rows[rows.length - 1];
  return { rows, next: more && last ? sortKeyOf(last, query.orderBy) : undefined };
}

/**
 * Where the next page starts, as readPage tells it, without reading the page: only the page's last
 * CD and the one after it are read (skipped to). A keyset part that ends before them, when another
 * part follows, is read for its length (less than a page), to carry the skip on into the next
 * part. Rows come in the projection of `fields=title`, which holds the sort key.
 */
export async function readPageEnd<R extends Record<string, unknown>>(
  query: ListQuery,
  read: (where: Condition[], limit: number, offset: number) => R[] | Promise<R[]>,
): Promise<SortKey | undefined> {
  let skip = (query.after ? 0 : query.offset) + query.limit - 1;
  const found: R[] = [];
  const parts = keysetParts(query);
  for (const [i, where] of parts.entries()) {
    const rows = await read(where, 2 - found.length, found.length === 0 ? skip : 0);
    if (found.length === 0 && rows.length === 0) {
      if (i === parts.length - 1) return undefined;
      // Nothing to carry on when nothing was to be skipped (a read of limit 0 is none on
      // SQLite, but no limit at all on MongoDB).
      if (skip > 0) skip -= (await read(where, skip, 0)).length;
      continue;
    }
    found.push(...rows);
    if (found.length === 2) break;
  }
  const [last] = found;
  return found.length === 2 && last ? sortKeyOf(last, query.orderBy) : undefined;
}

/**
 * How far a total is counted when the counting grows with the matches (a range, or two filters):
 * exact up to this, then "at least this many" (X-Total-Count-Relation: gte), as search engines
 * count. With no filter or one equality filter the total is exact at any size. Not 10,000:
 * counting that far cost many times the page it came with (bench/RESULTS.md).
 */
export const COUNT_LIMIT = 1_000;

/** Whether a list's total is exact at any size: no filter, or one equality filter. */
export const isTotalExact = ({ where }: ListQuery) =>
  where.length === 0 || (where.length === 1 && where[0]?.op === 'eq');

/**
 * A list's total as the page says it: exact when isTotalExact; else counted up to COUNT_LIMIT + 1,
 * so at most COUNT_LIMIT, then "at least".
 */
export function cappedTotal(
  query: ListQuery,
  counted: number,
): { total: number; totalAtLeast: boolean } {
  if (isTotalExact(query)) return { total: counted, totalAtLeast: false };
  return { total: Math.min(counted, COUNT_LIMIT), totalAtLeast: counted > COUNT_LIMIT };
}

/** The `cursor` of the page after the CD of `key`: base64url of JSON, [sort, ...key]. */
export function encodeCursor(sort: string | undefined, key: SortKey): string {
  return Buffer.from(JSON.stringify([sort ?? DEFAULT_SORT, ...key])).toString('base64url');
}

const UUID = new RegExp(ID_PATTERN);

/** Whether a value may be a CD's value of a field in a sort key. */
function isKeyValue(field: SortField | 'id', value: unknown): value is string | number {
  if (field === 'id') return typeof value === 'string' && UUID.test(value);
  if (FIELDS[field].kind === 'year') return Number.isSafeInteger(value);
  return typeof value === 'string';
}

/**
 * The sort key a cursor holds, when it is one of this order's (encodeCursor); undefined for
 * anything else: not base64url JSON, another sort, values of the wrong kinds.
 */
export function decodeCursor(cursor: string, orderBy: OrderBy[]): SortKey | undefined {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(decoded) || decoded.length !== orderBy.length + 1) return undefined;
  const [sort, ...key] = decoded as unknown[];
  const [first] = orderBy;
  const expected = first && `${first.direction === -1 ? '-' : ''}${first.field}`;
  if (sort !== expected) return undefined;
  return orderBy.every(({ field }, i) => isKeyValue(field, key[i])) ? (key as SortKey) : undefined;
}
