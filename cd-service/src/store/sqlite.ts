import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database, { type Statement } from 'better-sqlite3';
import { type CdRecord, FIELD_NAMES, FILTERS, toCd, toTitleOnly } from '../cd/schema.js';
import {
  CD_COLUMNS,
  column,
  RECORD_PROPERTIES,
  SCHEMA_SQL,
  TABLE,
  toSqlite,
} from './sqlite-schema.js';
import type { CdStore } from './store.js';
import { WriteBatcher } from './write-batcher.js';

type Row = Record<string, unknown>;

/**
 * The embedded store: one SQLite file in WAL mode with synchronous=FULL, so that a
 * committed write is on disk. Writes go through group commit (WriteBatcher).
 */
export function openSqliteStore(file: string): CdStore {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA_SQL);

  const batcher = new WriteBatcher(db);
  const insert = db.prepare(
    `INSERT INTO ${TABLE} (${RECORD_PROPERTIES.map(column).join(', ')}) VALUES (${RECORD_PROPERTIES.map(() => '?').join(', ')})`,
  );
  const byId = db.prepare(`SELECT ${CD_COLUMNS} FROM ${TABLE} WHERE id = ?`);
  // A null parameter keeps the column as it is: one statement serves every subset of fields.
  const changed = [...FIELD_NAMES, ...FILTERS.map((filter) => filter.key)];
  const update = db.prepare(
    `UPDATE ${TABLE} SET ${changed.map((name) => `${column(name)} = COALESCE(?, ${column(name)})`).join(', ')}, updated_at = ? WHERE id = ? RETURNING ${CD_COLUMNS}`,
  );
  const remove = db.prepare(`DELETE FROM ${TABLE} WHERE id = ?`);
  const countAll = db.prepare(`SELECT COUNT(*) AS total FROM ${TABLE}`).pluck();
  const ping = db.prepare('SELECT 1').pluck();
  const seeded = db.prepare(`SELECT value FROM meta WHERE key = 'seeded'`).pluck();
  const markSeeded = db.prepare(`INSERT INTO meta (key, value) VALUES ('seeded', ?)`);

  // List statements differ only by their filters, order and columns: a small, bounded set.
  const statements = new Map<string, Statement>();
  const statement = (sql: string): Statement => {
    let prepared = statements.get(sql);
    if (!prepared) {
      prepared = db.prepare(sql);
      statements.set(sql, prepared);
    }
    return prepared;
  };
  const insertRecord = (record: CdRecord) =>
    insert.run(RECORD_PROPERTIES.map((name) => record[name]));

  return {
    kind: 'sqlite',

    async insert(record) {
      await batcher.run(() => insertRecord(record));
      return toCd(record);
    },

    async get(id) {
      const row = byId.get(id) as Row | undefined;
      return row && toCd(row);
    },

    async update(id, changes) {
      const values = changed.map((name) => changes[name] ?? null);
      const row = await batcher.run(
        () => update.get([...values, changes.updatedAt, id]) as Row | undefined,
      );
      return row && toCd(row);
    },

    async delete(id) {
      const result = await batcher.run(() => remove.run(id));
      return result.changes > 0;
    },

    async list(query) {
      const { sql, params, countSql, countParams } = toSqlite(query);
      const rows = statement(sql).all(params) as Row[];
      const total = statement(countSql).pluck().get(countParams) as number;
      return { items: rows.map(query.fields === 'title' ? toTitleOnly : toCd), total };
    },

    async count() {
      return countAll.get() as number;
    },

    seedOnce(records) {
      return batcher.run(() => {
        if (seeded.get() !== undefined) return 0;
        markSeeded.run(new Date().toISOString());
        if ((countAll.get() as number) > 0) return 0;
        for (const record of records) insertRecord(record);
        return records.length;
      });
    },

    async ping() {
      ping.get();
    },

    async close() {
      batcher.flush();
      statements.clear();
      db.close();
    },
  };
}
