import type { ListQuery } from '../cd/query.js';
import { FIELD_NAMES, FIELDS, FILTERS } from '../cd/schema.js';

/** The SQLite mapping of the one CD definition: table, indexes and queries are derived here. */

export const TABLE = 'cds';

/** The column of a record property: releaseYear -> release_year. */
export function column(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** Every stored property, in column order: id, the fields, their filter keys, the timestamps. */
export const RECORD_PROPERTIES = [
  'id',
  ...FIELD_NAMES,
  ...FILTERS.map((filter) => filter.key),
  'createdAt',
  'updatedAt',
] as const;

/** The columns of a public CD, named as in toCd. */
export const CD_COLUMNS = ['id', ...FIELD_NAMES, 'createdAt', 'updatedAt']
  .map((name) => (column(name) === name ? name : `${column(name)} AS ${name}`))
  .join(', ');

function columnDefinition(name: string): string {
  const col = column(name);
  if (name === 'id') return `${col} TEXT PRIMARY KEY NOT NULL`;
  const spec = FIELDS[name as keyof typeof FIELDS];
  if (spec?.kind === 'text') {
    return `${col} TEXT NOT NULL CHECK (length(${col}) BETWEEN 1 AND ${spec.maxLength})`;
  }
  if (spec?.kind === 'year') return `${col} INTEGER NOT NULL CHECK (${col} >= ${spec.minimum})`;
  return `${col} TEXT NOT NULL`;
}

/** Indexes serving each filter and each sort in its stable order (then title, then id). */
const INDEXES: string[][] = [
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
  ...INDEXES.map((properties) => {
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

/**
 * The steps from each schema version (the file's `PRAGMA user_version`) to the next: step i
 * takes version i to i + 1. Version 0 is a new file, or one written before versions were kept
 * (the tables cds and meta, the same indexes). SCHEMA_SQL creates only what is missing, so a
 * later step must too: a new file gets the current schema from the first step.
 */
export const MIGRATIONS: readonly string[] = [
  // 0 -> 1: the counts, taken from the rows, then kept by triggers.
  `${SCHEMA_SQL};\n${RECOUNT_SQL}`,
];

/** The version of the schema this code writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.length;

export interface SqliteQuery {
  sql: string;
  params: (string | number)[];
  /** One row, one column `total`: how many CDs match in all. */
  countSql: string;
  countParams: (string | number)[];
}

/** How many CDs there are under a filter's key (ALL_CDS: in all): a lookup of `counts`. */
export const KEPT_COUNT_SQL = `SELECT ifnull((SELECT total FROM ${COUNTS_TABLE} WHERE filter = ? AND key = ?), 0) AS total`;

/** A list query as SQL with bound parameters: values never become SQL text. */
export function toSqlite(query: ListQuery): SqliteQuery {
  const conditions = query.where.map(
    (condition) => `${column(condition.field)} ${condition.op === 'eq' ? '=' : '<'} ?`,
  );
  const values = query.where.map((condition) => condition.value);
  const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
  const order = query.orderBy
    .map((o) => `${column(o.field)} ${o.direction === 1 ? 'ASC' : 'DESC'}`)
    .join(', ');
  const columns = query.fields === 'title' ? 'title' : CD_COLUMNS;
  return {
    sql: `SELECT ${columns} FROM ${TABLE}${where} ORDER BY ${order} LIMIT ? OFFSET ?`,
    params: [...values, query.limit, query.offset],
    ...countOf(query, where, values),
  };
}

/**
 * The count of a list: kept in `counts` for every CD or one filter's key; any other condition
 * (two filters, a year) is counted over the rows it matches.
 */
function countOf(
  { where }: ListQuery,
  whereSql: string,
  values: (string | number)[],
): Pick<SqliteQuery, 'countSql' | 'countParams'> {
  const [only] = where;
  if (only === undefined) return { countSql: KEPT_COUNT_SQL, countParams: [...ALL_CDS] };
  if (where.length === 1 && only.op === 'eq') {
    return { countSql: KEPT_COUNT_SQL, countParams: [column(only.field), only.value] };
  }
  return { countSql: `SELECT COUNT(*) AS total FROM ${TABLE}${whereSql}`, countParams: values };
}
