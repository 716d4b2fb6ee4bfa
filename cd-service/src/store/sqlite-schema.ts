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

/** Creates what is missing; safe to run on every start. */
export const SCHEMA_SQL = [
  `CREATE TABLE IF NOT EXISTS ${TABLE} (\n  ${RECORD_PROPERTIES.map(columnDefinition).join(',\n  ')}\n) STRICT`,
  ...INDEXES.map((properties) => {
    const columns = properties.map(column);
    return `CREATE INDEX IF NOT EXISTS ${TABLE}_${columns.join('_')} ON ${TABLE} (${columns.join(', ')})`;
  }),
  'CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) STRICT',
].join(';\n');

export interface SqliteQuery {
  sql: string;
  params: (string | number)[];
  countSql: string;
  countParams: (string | number)[];
}

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
    countSql: `SELECT COUNT(*) AS total FROM ${TABLE}${where}`,
    countParams: values,
  };
}
