import {
  COUNT_LIMIT,
  type Condition,
  isTotalExact,
  type ListQuery,
  orderFor,
} from '../cd/query.js';
import { FIELD_NAMES, FIELDS, FILTERS, type FieldName, SORT_FIELDS } from '../cd/schema.js';

/** The SQLite mapping of the one CD definition: table, indexes and queries are derived here. */

export const TABLE = 'cds';

const columns = new Map<string, string>();

/**
 * The column of a record property: releaseYear -> release_year. Each list's SQL names a dozen
 * columns: each name is worked out once (the names are the schema's, a bounded set).
 */
export function column(name: string): string {
  let col = columns.get(name);
  if (col === undefined) {
    col = name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    columns.set(name, col);
  }
  return col;
}

/** Every stored property, in column order: id, the fields, their filter keys, the timestamps. */
export const RECORD_PROPERTIES = [
  'id',
  ...FIELD_NAMES,
  ...FILTERS.map((filter) => filter.key),
  'createdAt',
  'updatedAt',
] as const;

/** The properties of a public CD, in toCd's order. */
const CD_PROPERTIES = ['id', ...FIELD_NAMES, 'createdAt', 'updatedAt'];

/** Columns selected under their properties' names. */
const selected = (names: readonly string[]) =>
  names.map((name) => (column(name) === name ? name : `${column(name)} AS ${name}`)).join(', ');

/** The columns of a public CD, named as in toCd. */
export const CD_COLUMNS = selected(CD_PROPERTIES);

/**
 * A column's type and NOT NULL: the table holds the shape, the rules are the JSON Schema's
 * (cd/validate.ts), judged before any store is called.
 */
function columnDefinition(name: string): string {
  const col = column(name);
  if (name === 'id') return `${col} TEXT PRIMARY KEY NOT NULL`;
  return `${col} ${FIELDS[name as FieldName]?.kind === 'year' ? 'INTEGER' : 'TEXT'} NOT NULL`;
}

/** The indexes of the first schema versions (see LIST_INDEXES), as they were made then. */
const FIRST_INDEXES: string[][] = [
  ['title', 'id'],
  ...FILTERS.map((filter) => [filter.key, 'title', 'id']),
  ['artist', 'title', 'id'],
  ['releaseYear', 'title', 'id'],
];

/** The columns of the table `meta` (key, value): what the store knows of itself ('seeded'). */
export const META_COLUMNS = ['key', 'value'] as const;

/**
 * The table `counts` (filter, key, total): how many CDs there are in all (the row '', '') and
 * for each key of each filter column (e.g. 'genre_key', 'rock'). Triggers on `cds` change it in
 * the statement that writes a CD, so in its transaction: every connection to the file reads
 * counts that are true, and a list's total costs one lookup whatever the size. A key that no
 * CD holds any more has no row.
 */
export const COUNTS_TABLE = 'counts';
export const COUNTS_COLUMNS = ['filter', 'key', 'total'] as const;
/** The filter and key of the row that counts every CD. */
export const ALL_CDS = ['', ''] as const;

const FILTER_COLUMNS = FILTERS.map((filter) => column(filter.key));

/** SQL that counts one more CD under `filter` = `key` (`key` is SQL: NEW.genre_key). */
function countOneMore(filter: string, key: string): string {
  return `INSERT INTO ${COUNTS_TABLE} (filter, key, total) VALUES ('${filter}', ${key}, 1) ON CONFLICT (filter, key) DO UPDATE SET total = total + 1`;
}

/** SQL that counts one CD less under a filter's key, dropping the row when none is left. */
function countOneLess(filter: string, key: string): string[] {
  const row = `filter = '${filter}' AND key = ${key}`;
  return [
    `UPDATE ${COUNTS_TABLE} SET total = total - 1 WHERE ${row}`,
    `DELETE FROM ${COUNTS_TABLE} WHERE ${row} AND total = 0`,
  ];
}

/** A trigger on `cds` that runs `statements` after the write `event`. */
function trigger(name: string, event: string, statements: string[]): string {
  return `CREATE TRIGGER IF NOT EXISTS ${TABLE}_${name} AFTER ${event} BEGIN\n  ${statements.join(';\n  ')};\nEND`;
}

const ALL_CDS_ROW = `filter = '${ALL_CDS[0]}' AND key = '${ALL_CDS[1]}'`;

const TRIGGERS = [
  trigger('count_insert', `INSERT ON ${TABLE}`, [
    countOneMore(ALL_CDS[0], `'${ALL_CDS[1]}'`),
    ...FILTER_COLUMNS.map((col) => countOneMore(col, `NEW.${col}`)),
  ]),
  trigger('count_delete', `DELETE ON ${TABLE}`, [
    `UPDATE ${COUNTS_TABLE} SET total = total - 1 WHERE ${ALL_CDS_ROW}`,
    ...FILTER_COLUMNS.flatMap((col) => countOneLess(col, `OLD.${col}`)),
  ]),
  ...FILTER_COLUMNS.map((col) =>
    trigger(
      `count_update_${col}`,
      `UPDATE OF ${col} ON ${TABLE} WHEN OLD.${col} IS NOT NEW.${col}`,
      [...countOneLess(col, `OLD.${col}`), countOneMore(col, `NEW.${col}`)],
    ),
  ),
];

/** Creates what is missing: the tables, indexes and triggers of the current version. */
export const SCHEMA_SQL = [
  `CREATE TABLE IF NOT EXISTS ${TABLE} (\n  ${RECORD_PROPERTIES.map(columnDefinition).join(',\n  ')}\n) STRICT`,
  ...FIRST_INDEXES.map((properties) => {
    const columns = properties.map(column);
    return `CREATE INDEX IF NOT EXISTS ${TABLE}_${columns.join('_')} ON ${TABLE} (${columns.join(', ')})`;
  }),
  'CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) STRICT',
  `CREATE TABLE IF NOT EXISTS ${COUNTS_TABLE} (filter TEXT NOT NULL, key TEXT NOT NULL, total INTEGER NOT NULL CHECK (total >= 0), PRIMARY KEY (filter, key)) STRICT, WITHOUT ROWID`,
  ...TRIGGERS,
].join(';\n');

/** Counts the rows afresh: the counts of a database that had none. */
export const RECOUNT_SQL = [
  `DELETE FROM ${COUNTS_TABLE}`,
  `INSERT INTO ${COUNTS_TABLE} (filter, key, total) SELECT '${ALL_CDS[0]}', '${ALL_CDS[1]}', COUNT(*) FROM ${TABLE}`,
  ...FILTER_COLUMNS.map(
    (col) =>
      `INSERT INTO ${COUNTS_TABLE} (filter, key, total) SELECT '${col}', ${col}, COUNT(*) FROM ${TABLE} GROUP BY ${col}`,
  ),
].join(';\n');

/** Every combination of the filters: none, each alone, all together (in FILTERS order). */
const FILTER_SETS: string[][] = [[]];
for (const { key } of FILTERS) FILTER_SETS.push(...FILTER_SETS.map((set) => [...set, key]));

/**
 * The name and columns of the index that serves a list with these equality filters and this
 * sort: the filter keys, then the list's order (ascending; scanned backwards for `-`, since a
 * descending sort reverses its ties too), then the year when the order lacks it, so that
 * `before` is checked in the index without reading the rows.
 */
export function listIndex(
  filterKeys: readonly string[],
  sortField: string,
): { name: string; properties: string[]; columns: string[] } {
  const order = orderFor(sortField).map((o) => o.field as string);
  const properties = [...filterKeys, ...order];
  if (!properties.includes('releaseYear')) properties.push('releaseYear');
  const columns = properties.map(column);
  return { name: `${TABLE}_list_${columns.join('_')}`, properties, columns };
}

/** An index for every combination of the filters and every sort, each direction included. */
export const LIST_INDEXES = FILTER_SETS.flatMap((keys) =>
  SORT_FIELDS.map((field) => listIndex(keys, field)),
);

/** Creates the list indexes that are missing. */
export const LIST_INDEXES_SQL = LIST_INDEXES.map(
  ({ name, columns }) => `CREATE INDEX IF NOT EXISTS ${name} ON ${TABLE} (${columns.join(', ')})`,
).join(';\n');

/** Drops the list indexes (a bulk load builds them again after the rows, by sorting). */
export const DROP_LIST_INDEXES_SQL = LIST_INDEXES.map(
  ({ name }) => `DROP INDEX IF EXISTS ${name}`,
).join(';\n');

/**
 * The column of a CD's version: 1 when it is created, one more with each change, in the
 * statement that changes it. Its ETag comes from it. Not a record property: the store keeps it.
 */
export const VERSION_COLUMN = 'version';

/** The step that adds each CD's version, 1 for those already there. */
const ADD_VERSIONS = `ALTER TABLE ${TABLE} ADD COLUMN ${VERSION_COLUMN} INTEGER NOT NULL DEFAULT 1 CHECK (${VERSION_COLUMN} >= 1)`;

/**
 * The version of the whole collection (a list's ETag comes from it): a counter in `meta`, one
 * more after every insert, update and delete of a CD, by triggers, so in the write's own
 * transaction; and an epoch, random, made with it and again at every start, so that a database
 * made afresh, or restored from a backup, never gives the versions it or another gave before.
 */
export const LIST_VERSION_SQL = `SELECT (SELECT value FROM meta WHERE key = 'list_epoch') || '.' || (SELECT value FROM meta WHERE key = 'list_version')`;

/**
 * A new epoch for the collection's version, at every start: a database restored from a backup
 * then never gives the list tags it gave before.
 */
export const NEW_LIST_EPOCH_SQL = `UPDATE meta SET value = lower(hex(randomblob(8))) WHERE key = 'list_epoch'`;

/** Raises the collection's version by one. */
export const RAISE_LIST_VERSION_SQL = `UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'list_version'`;

/** The step that adds the collection's version (LIST_VERSION_SQL). */
const ADD_LIST_VERSION = [
  `INSERT INTO meta (key, value) VALUES ('list_epoch', lower(hex(randomblob(8)))), ('list_version', '1')`,
  ...['INSERT', 'UPDATE', 'DELETE'].map((event) =>
    trigger(`list_version_${event.toLowerCase()}`, `${event} ON ${TABLE}`, [
      RAISE_LIST_VERSION_SQL,
    ]),
  ),
].join(';\n');

/**
 * The columns of the table `cds` at a schema version, in order: the record properties, then,
 * from the version ADD_VERSIONS makes on, the version.
 */
export function tableColumns(schemaVersion: number): string[] {
  const columns = RECORD_PROPERTIES.map(column);
  const versionsSince = MIGRATIONS.indexOf(ADD_VERSIONS) + 1;
  return schemaVersion >= versionsSince ? [...columns, VERSION_COLUMN] : columns;
}

/**
 * The steps from each schema version (the file's `PRAGMA user_version`) to the next: step i
 * takes version i to i + 1. Version 0 is a new file, or one written before versions were kept
 * (the tables cds and meta, the same indexes). SCHEMA_SQL creates only what is missing, so a
 * later step must too. Every file, a new one included, runs every step from its version on: a
 * column added to `cds` after version 1 is added by its own step (SCHEMA_SQL's table is that
 * of version 1).
 */
export const MIGRATIONS: readonly string[] = [
  // 0 -> 1: the counts, taken from the rows, then kept by triggers.
  `${SCHEMA_SQL};\n${RECOUNT_SQL}`,
  // 1 -> 2: an index for each combination of filters and each sort, in both directions (the
  // list indexes), in place of those of version 1.
  [
    ...FIRST_INDEXES.map(
      (properties) => `DROP INDEX IF EXISTS ${TABLE}_${properties.map(column).join('_')}`,
    ),
    LIST_INDEXES_SQL,
  ].join(';\n'),
  // 2 -> 3: each CD's version.
  ADD_VERSIONS,
  // 3 -> 4: the collection's version.
  ADD_LIST_VERSION,
];

/** The version of the schema this code writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.length;

export interface SqliteQuery {
  sql: string;
  params: (string | number)[];
  /** The property each selected column is, in order. */
  names: readonly string[];
  /** One row, one column `total`: how many CDs match in all (up to COUNT_LIMIT + 1). */
  countSql: string;
  countParams: (string | number)[];
}

/** How many CDs there are under a filter's key (ALL_CDS: in all): a lookup of `counts`. */
export const KEPT_COUNT_SQL = `SELECT ifnull((SELECT total FROM ${COUNTS_TABLE} WHERE filter = ? AND key = ?), 0) AS total`;

const OPERATORS = { eq: '=', lt: '<', gt: '>' } as const;

/** The conditions as a WHERE clause with bound parameters: values never become SQL text. */
function whereOf(conditions: Condition[]): { where: string; values: (string | number)[] } {
  const sql = conditions.map((c) => `${column(c.field)} ${OPERATORS[c.op]} ?`);
  return {
    where: sql.length > 0 ? ` WHERE ${sql.join(' AND ')}` : '',
    values: conditions.map((condition) => condition.value),
  };
}

/** The part of a page to read: its conditions (keysetParts), how many rows, from where. */
export interface PagePart {
  where: Condition[];
  limit: number;
  offset: number;
}

/**
 * A list query (or one part of its page) as SQL, with its count. The rows come in the order of
 * the list index of its filters and sort (listIndex), named with INDEXED BY: the page is one
 * walk of that index, stopped at the limit, whatever the planner would guess for a range. With
 * fields=title the sort key comes too (for the next page's cursor), from the same index.
 */
export function toSqlite(
  query: ListQuery,
  part: PagePart = { where: query.where, limit: query.limit, offset: query.offset },
): SqliteQuery {
  const { where, values } = whereOf(part.where);
  const order = query.orderBy
    .map((o) => `${column(o.field)} ${o.direction === 1 ? 'ASC' : 'DESC'}`)
    .join(', ');
  const names =
    query.fields === 'title'
      ? ['title', ...query.orderBy.map((o) => o.field).filter((field) => field !== 'title')]
      : CD_PROPERTIES;
  const filterKeys = FILTERS.map((f) => f.key as string).filter((key) =>
    query.where.some((c) => c.field === key && c.op === 'eq'),
  );
  const [first] = query.orderBy;
  const index = listIndex(filterKeys, first?.field ?? 'title').name;
  return {
    sql: `SELECT ${selected(names)} FROM ${TABLE} INDEXED BY ${index}${where} ORDER BY ${order} LIMIT ? OFFSET ?`,
    params: [...values, part.limit, part.offset],
    names,
    ...countOf(query),
  };
}

/**
 * The count of a list: kept in `counts` for every CD or one filter's key (exact at any size);
 * any other condition (two filters, a year) is counted over the rows it matches, up to
 * COUNT_LIMIT + 1 (cappedTotal then says "at least COUNT_LIMIT").
 */
function countOf(query: ListQuery): Pick<SqliteQuery, 'countSql' | 'countParams'> {
  const [only] = query.where;
  if (only === undefined) return { countSql: KEPT_COUNT_SQL, countParams: [...ALL_CDS] };
  if (isTotalExact(query)) {
    return { countSql: KEPT_COUNT_SQL, countParams: [column(only.field), only.value] };
  }
  const { where, values } = whereOf(query.where);
  return {
    countSql: `SELECT COUNT(*) AS total FROM (SELECT 1 FROM ${TABLE}${where} LIMIT ${COUNT_LIMIT + 1})`,
    countParams: values,
  };
}
