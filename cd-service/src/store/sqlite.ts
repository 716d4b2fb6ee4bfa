import { accessSync, type BigIntStats, constants, existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database, { type Statement } from 'better-sqlite3';
import { StoreUnavailable, VersionMismatch } from '../cd/errors.js';
import { type Condition, cappedTotal, type ListQuery, readPage, readPageEnd } from '../cd/query.js';
import { type CdRecord, FIELD_NAMES, FILTERS, toCd, toTitleOnly } from '../cd/schema.js';
import { lockFile } from './file-lock.js';
import { readTurns } from './read-turns.js';
import {
  ALL_CDS,
  CD_COLUMNS,
  COUNTS_COLUMNS,
  COUNTS_TABLE,
  column,
  DROP_LIST_INDEXES_SQL,
  KEPT_COUNT_SQL,
  LIST_INDEXES_SQL,
  LIST_VERSION_SQL,
  META_COLUMNS,
  MIGRATIONS,
  NEW_LIST_EPOCH_SQL,
  RAISE_LIST_VERSION_SQL,
  RECORD_PROPERTIES,
  RECOUNT_SQL,
  SCHEMA_VERSION,
  TABLE,
  tableColumns,
  toSqlite,
  VERSION_COLUMN,
} from './sqlite-schema.js';
import { type CdStore, isConditional, type VersionCondition } from './store.js';
import { WriteBatcher } from './write-batcher.js';

type Row = Record<string, unknown>;
type SqliteError = InstanceType<typeof Database.SqliteError>;

export interface SqliteOptions {
  /** How long a write waits for a lock held by another connection before failing (SQLITE_BUSY). */
  busyTimeoutMs?: number;
}

/** What a client reads when the database fails; the cause goes to the log only. */
export const WRITE_UNAVAILABLE = 'The database cannot take writes now; try again later';
export const READ_UNAVAILABLE = 'The database cannot be read now; try again later';
/** Seconds a client should wait before trying again. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * SQLite's result codes (with their extended forms, e.g. SQLITE_IOERR_WRITE) of a database that
 * cannot serve now: a full disk, a read-only or moved file, an I/O error, a lock held too long,
 * no memory, a file that cannot be opened or is damaged. Not a refused statement (a constraint):
 * that is a bug, a 500.
 */
const UNAVAILABLE_CODES =
  /^SQLITE_(FULL|READONLY|IOERR|BUSY|LOCKED|NOMEM|CANTOPEN|CORRUPT|NOTADB|PROTOCOL)(_|$)/;

/** The store unavailable, its cause (SQLite's error, or the file gone) and code kept for the log. */
export class SqliteUnavailable extends StoreUnavailable {
  readonly code: string;

  constructor(message: string, cause: SqliteError | DatabaseFileGone) {
    super(message, RETRY_AFTER_SECONDS, { cause });
    this.code = cause.code;
  }
}

/**
 * The database file was deleted, moved or replaced while the store had it open: the store
 * still writes into the file it opened, which a restart would not open. Its message, for the
 * log, says what the path holds now.
 */
export class DatabaseFileGone extends Error {
  override name = 'DatabaseFileGone';
  readonly code = 'DATABASE_FILE_GONE';
}

/** SQLite's codes of a write the disk did not take: full, or a write the file system refused. */
const NO_ROOM = /^SQLITE_(FULL|IOERR)(_|$)/;

const isNoRoom = (error: unknown) =>
  error instanceof Database.SqliteError && NO_ROOM.test(error.code);

/** Whether an error says that the database itself fails (not the statement). */
export function isUnavailable(error: unknown): error is SqliteError {
  return error instanceof Database.SqliteError && UNAVAILABLE_CODES.test(error.code);
}

/** What a failed store operation throws: a failing database makes the store unavailable. */
function toStoreError(error: unknown, message: string): unknown {
  return isUnavailable(error) ? new SqliteUnavailable(message, error) : error;
}

async function writing<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw toStoreError(error, WRITE_UNAVAILABLE);
  }
}

function reading<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw toStoreError(error, READ_UNAVAILABLE);
  }
}

const isInMemory = (file: string) => file === ':memory:' || file === '';

/**
 * The embedded store: one SQLite file in WAL mode with synchronous=FULL, so that a
 * committed write is on disk. Writes go through group commit (WriteBatcher). The file is
 * checked before anything is changed in it (openCdDatabase), and used by one process only: its
 * lock (lockFile) is taken first, and a file that another process holds is refused, unchanged.
 * Every write and every health check verify that the path still leads to the file the store
 * opened (deleted, moved or replaced, it would not be the one a restart opens).
 */
export function openSqliteStore(file: string, options: SqliteOptions = {}): CdStore {
  if (isInMemory(file)) return sqliteStore(openCdDatabase(file, options));
  checkPath(file);
  const lock = lockFile(file);
  try {
    const db = openCdDatabase(file, options);
    const opened = statSync(file, { bigint: true });
    return sqliteStore(db, { file, opened, release: () => lock.release() });
  } catch (error) {
    lock.release({ remove: true });
    throw error;
  }
}

/** Whether `file` would be a new database: it does not exist yet, or it is empty (zero bytes). */
export function isNewDatabaseFile(file: string): boolean {
  if (isInMemory(file)) return true;
  try {
    return statSync(file).size === 0;
  } catch {
    return true;
  }
}

/**
 * Opens the CD database of `file`, refusing, with a message that names the file, what would
 * only fail later or harm someone else's data: a folder that does not exist (it is not
 * created: a mistyped path or a missing volume would look like an empty collection), a file
 * or folder that cannot be written, a file that is not an SQLite database, a database of
 * another application. Nothing is written to the file before these checks pass; then it is
 * switched to WAL mode and brought to the current schema (migrate).
 */
export function openCdDatabase(file: string, options: SqliteOptions = {}): Database.Database {
  if (!isInMemory(file)) checkPath(file);
  let db: Database.Database;
  try {
    db = new Database(file);
  } catch (error) {
    throw new Error(`${file}: cannot open the database: ${(error as Error).message}`);
  }
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    checkTables(db, file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    // 512 KiB of pages instead of SQLite's 2 MiB (which grew the process by about 9 MB under
    // writes): the OS's file cache holds the rest. A larger one did not make a list of random
    // rows at 100,000 CDs faster (each still misses).
    db.pragma('cache_size = -512');
    // The statement journal that each write opens, for its count triggers, is kept in memory:
    // as a temporary file it made every insert dearer in CPU (bench/RESULTS.md).
    db.pragma('temp_store = MEMORY');
    // A checkpoint that empties the WAL (every 1000 pages by default) cuts the file back to
    // this size: after a large transaction, or when readers held a checkpoint back, the WAL
    // does not stay at its largest.
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    migrate(db);
    analyzeWhenUseful(db);
    return db;
  } catch (error) {
    db.close();
    const message = (error as Error).message;
    throw new Error(message.startsWith(file) ? message : `${file}: ${message}`);
  }
}

/** The folder exists; the file, when there is one, and the folder can be read and written. */
function checkPath(file: string): void {
  const folder = dirname(resolve(file));
  if (!existsSync(folder)) {
    throw new Error(
      `${file}: the folder ${folder} does not exist; create it or correct the path (only the default data folder is created)`,
    );
  }
  if (!statSync(folder).isDirectory()) throw new Error(`${file}: ${folder} is not a folder`);
  if (existsSync(file)) {
    if (!statSync(file).isFile()) throw new Error(`${file}: not a file`);
    if (!can(file, constants.R_OK)) throw new Error(`${file}: the database file cannot be read`);
    if (!can(file, constants.W_OK)) {
      throw new Error(
        `${file}: the database file can be read but not written (its permissions or its file system); every write would fail`,
      );
    }
  }
  // SQLite keeps its -wal and -shm files beside the database, and creates a new file there.
  if (!can(folder, constants.W_OK | constants.X_OK)) {
    throw new Error(
      `${file}: the folder ${folder} is not writable (SQLite writes its -wal and -shm files there)`,
    );
  }
}

function can(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads the schema (a file that is not a database fails here, before any write) and refuses a
 * database whose tables are not ours or not of our shape: it belongs to another application;
 * or whose schema is newer than this code's: it would not keep what that version added.
 */
function checkTables(db: Database.Database, file: string): void {
  const version = schemaVersion(db);
  if (version > SCHEMA_VERSION) {
    throw new Error(
      `${file} has the schema version ${version}, newer than this cd-service's (${SCHEMA_VERSION}); refusing to use or change it`,
    );
  }
  const tables = db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .pluck()
    .all() as string[];
  const expected: Record<string, readonly string[]> = {
    [TABLE]: tableColumns(version),
    meta: META_COLUMNS,
    [COUNTS_TABLE]: COUNTS_COLUMNS,
  };
  const foreign = tables.filter((name) => !Object.hasOwn(expected, name));
  if (foreign.length > 0) {
    throw new Error(
      `${file} is not a cd-service database (it holds the tables ${foreign.join(', ')}); refusing to use or change it`,
    );
  }
  // Columns by name only: a table made with the text and year CHECKs of earlier versions is kept as it is (dropping them means rebuilding the table, minutes at 1,000,000 CDs; ajv judges every write first).
  for (const name of tables) {
    const columns = (db.pragma(`table_info(${name})`) as { name: string }[]).map((c) => c.name);
    const wanted = expected[name] ?? [];
    if (columns.join(',') !== wanted.join(',')) {
      throw new Error(
        `${file} is not a cd-service database: its table ${name} has the columns ${columns.join(', ')}, not ${wanted.join(', ')}; refusing to use or change it`,
      );
    }
  }
}

const schemaVersion = (db: Database.Database) =>
  db.pragma('user_version', { simple: true }) as number;

/**
 * Brings the database to SCHEMA_VERSION (its `user_version`), one step of MIGRATIONS at a time,
 * in one transaction that holds the write lock from its start: of two processes opening the
 * same file at once, the second waits, then finds the work done.
 */
function migrate(db: Database.Database): void {
  if (schemaVersion(db) === SCHEMA_VERSION) return;
  db.transaction(() => {
    for (const step of MIGRATIONS.slice(schemaVersion(db))) db.exec(step);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

/**
 * Gives the query planner statistics (ANALYZE, bounded) when the table has none or has grown
 * or shrunk much since: without them it cannot tell that an artist is more selective than a
 * genre, and `?artist=A&genre=G` walked a quarter of the CDs (bench/RESULTS.md). A no-op
 * otherwise; an empty table is not analyzed. SQLite's advice for long-lived connections.
 */
function analyzeWhenUseful(db: Database.Database): void {
  db.pragma('optimize = 0x10002');
}

/** What a checkpoint that empties the WAL leaves of it (journal_size_limit): 32 MiB. */
export const WAL_SIZE_LIMIT_BYTES = 32 * 1024 * 1024;

/** The page cache while a sample collection is loaded: its id index stays in memory. */
const BULK_LOAD_CACHE_KIB = 64 * 1024;

/**
 * Loads records into the empty table, in the transaction of the caller: the rows first, then
 * the list indexes, each built once by sorting its keys rather than updated row by row (about
 * 3 times as fast at 1,000,000 CDs). The triggers on the table are set aside meanwhile and put
 * back after, the counts taken afresh and the collection's version raised once: the per-row
 * triggers cost more than the rows themselves. The page cache is larger meanwhile, and the
 * sort's scratch space is in temporary files rather than memory, so that the process stays small.
 */
function bulkLoad(
  db: Database.Database,
  records: Iterable<CdRecord>,
  insert: (record: CdRecord) => unknown,
): number {
  const triggers = db
    .prepare(`SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = ?`)
    .all(TABLE) as { name: string; sql: string }[];
  for (const { name } of triggers) db.exec(`DROP TRIGGER ${name}`);
  db.exec(DROP_LIST_INDEXES_SQL);
  let count = 0;
  for (const record of records) {
    insert(record);
    count += 1;
  }
  db.exec(LIST_INDEXES_SQL);
  for (const { sql } of triggers) db.exec(sql);
  db.exec(RECOUNT_SQL);
  db.exec(RAISE_LIST_VERSION_SQL);
  return count;
}

/** The file an opened database lives in, to notice that its path no longer leads to it. */
export interface OpenedFile {
  file: string;
  /** The file as it was when it was opened (its device and inode). */
  opened: BigIntStats;
  /** Run when the store is closed (its lock released). */
  release?: () => void;
}

/**
 * What the path of the opened file leads to now, when it is not that file any more (undefined
 * while it is): nothing (deleted or moved away) or another file (replaced, or moved onto).
 */
function fileGone({ file, opened }: OpenedFile): DatabaseFileGone | undefined {
  let now: BigIntStats | undefined;
  try {
    now = statSync(file, { bigint: true });
  } catch {
    now = undefined;
  }
  if (now && now.dev === opened.dev && now.ino === opened.ino) return undefined;
  const where = now ? `it now leads to another file (inode ${now.ino})` : 'nothing is there now';
  return new DatabaseFileGone(
    `${file} was deleted, moved or replaced while in use (the open file is device ${opened.dev}, inode ${opened.ino}; ${where}): writes are refused, since a restart would not find them; put the file back, or restart the service (which opens what the path holds then)`,
  );
}

/**
 * The store over an opened CD database (openCdDatabase); closing the store closes it. With the
 * file it lives in, every write batch (before and after its commit) and every ping check that
 * the path still leads to that file; when it does not, they fail with SqliteUnavailable.
 */
export function sqliteStore(db: Database.Database, file?: OpenedFile): CdStore {
  const verifyFile = file
    ? () => {
        const gone = fileGone(file);
        if (gone) throw new SqliteUnavailable(WRITE_UNAVAILABLE, gone);
      }
    : () => {};
  const batcher = new WriteBatcher(db, verifyFile);
  const insert = db.prepare(
    `INSERT INTO ${TABLE} (${RECORD_PROPERTIES.map(column).join(', ')}) VALUES (${RECORD_PROPERTIES.map(() => '?').join(', ')})`,
  );
  const versioned = `${CD_COLUMNS}, ${VERSION_COLUMN}`;
  const byId = db.prepare(`SELECT ${versioned} FROM ${TABLE} WHERE id = ?`);
  const exists = db.prepare(`SELECT 1 FROM ${TABLE} WHERE id = ?`).pluck();
  // The condition of a write, in the statement that writes: its parameters are twice the JSON
  // array of the versions it may replace (or null: any), then twice those it may not (or null).
  const versionIn = (not: string) =>
    `(? IS NULL OR ${VERSION_COLUMN} ${not}IN (SELECT value FROM json_each(?)))`;
  const meetsCondition = `${versionIn('')} AND ${versionIn('NOT ')}`;
  // A null parameter keeps the column as it is: one statement serves every subset of fields.
  const changed = [...FIELD_NAMES, ...FILTERS.map((filter) => filter.key)];
  const update = db.prepare(
    `UPDATE ${TABLE} SET ${changed.map((name) => `${column(name)} = COALESCE(?, ${column(name)})`).join(', ')}, updated_at = ?, ${VERSION_COLUMN} = ${VERSION_COLUMN} + 1 WHERE id = ? AND ${meetsCondition} RETURNING ${versioned}`,
  );
  const remove = db.prepare(`DELETE FROM ${TABLE} WHERE id = ? AND ${meetsCondition}`);
  /** The parameters of meetsCondition. */
  const parameters = (condition: VersionCondition = {}) =>
    [condition.in, condition.in, condition.notIn, condition.notIn].map((versions) =>
      versions === undefined ? null : JSON.stringify(versions),
    );
  /**
   * After a write changed nothing: when it had a condition and the CD is there, in the same
   * transaction, the CD was at a version the condition excludes.
   */
  const refuseWhenStale = (id: string, condition: VersionCondition | undefined) => {
    if (isConditional(condition) && exists.get(id) !== undefined) throw new VersionMismatch(id);
  };
  const toVersioned = (row: Row) => ({ cd: toCd(row), version: row[VERSION_COLUMN] as number });
  const countAll = db
    .prepare(KEPT_COUNT_SQL)
    .pluck()
    .bind(...ALL_CDS);
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
  /**
   * Reads one part of a list's page (readPage). better-sqlite3 makes each row an object property
   * by property; its rows as arrays (`raw`), named here, cost less (bench/RESULTS.md).
   */
  const readPart =
    (query: ListQuery) =>
    (where: Condition[], limit: number, offset: number): Row[] => {
      const { sql, params, names } = toSqlite(query, { where, limit, offset });
      const rows = reading(() => statement(sql).raw().all(params) as unknown[][]);
      return rows.map((values) => {
        const row: Row = {};
        names.forEach((name, i) => {
          row[name] = values[i];
        });
        return row;
      });
    };
  const countOf = (query: ListQuery) => {
    const { countSql, countParams } = toSqlite(query);
    return cappedTotal(
      query,
      reading(() => statement(countSql).pluck().get(countParams) as number),
    );
  };
  const listVersion = db.prepare(LIST_VERSION_SQL).pluck();
  db.prepare(NEW_LIST_EPOCH_SQL).run();
  // A list's reads hold the event loop (a page of 1,000 CDs: milliseconds): a turn holds a
  // bounded share of them, the rest waits for the next turns.
  const turns = readTurns();
  /** Runs a list's reads within the budget of an event-loop turn (readTurns). */
  const inTurn = async <T>(read: () => Promise<T>): Promise<T> => {
    const wait = turns.enter();
    if (wait) await wait;
    const startedAt = performance.now();
    try {
      return await read();
    } finally {
      turns.leave(startedAt);
    }
  };
  const insertRecord = (record: CdRecord) =>
    insert.run(RECORD_PROPERTIES.map((name) => record[name]));

  let failing = false;
  /**
   * After a write the disk did not take: copies the WAL into the database and lets the next
   * writes reuse the WAL from its start (RESTART keeps the file's space, where TRUNCATE would
   * give it away); whether that worked. A WAL that could not grow has room again then, as long
   * as the database file takes its pages.
   */
  const makeRoom = (): boolean => {
    try {
      const [result] = db.pragma('wal_checkpoint(RESTART)') as {
        busy: number;
        log: number;
        checkpointed: number;
      }[];
      return result !== undefined && result.busy === 0 && result.log === result.checkpointed;
    } catch {
      return false;
    }
  };
  /**
   * A write through `writing`, noting whether the store took it; when the disk did not, room is
   * made for the next ones, and with `retry` (a delete, which frees space) it is tried once more.
   */
  const tracked = async <T>(write: () => Promise<T>, retry = false): Promise<T> => {
    try {
      const value = await writing(write);
      failing = false;
      return value;
    } catch (error) {
      if (!(error instanceof SqliteUnavailable)) throw error;
      failing = true;
      if (isNoRoom(error.cause) && makeRoom() && retry) return tracked(write);
      throw error;
    }
  };

  return {
    kind: 'sqlite',

    insert(record) {
      return tracked(async () => {
        await batcher.run(() => insertRecord(record));
        return { cd: toCd(record), version: 1 };
      });
    },

    async get(id) {
      const row = reading(() => byId.get(id) as Row | undefined);
      return row && toVersioned(row);
    },

    update(id, changes, condition) {
      const values = changed.map((name) => changes[name] ?? null);
      return tracked(async () => {
        const row = await batcher.run(() => {
          const written = update.get([...values, changes.updatedAt, id, ...parameters(condition)]);
          if (written === undefined) refuseWhenStale(id, condition);
          return written as Row | undefined;
        });
        return row && toVersioned(row);
      });
    },

    delete(id, condition) {
      return tracked(
        () =>
          batcher.run(() => {
            if (remove.run(id, ...parameters(condition)).changes > 0) return true;
            refuseWhenStale(id, condition);
            return false;
          }),
        true,
      );
    },

    list(query) {
      return inTurn(async () => {
        const { rows, next } = await readPage(query, readPart(query));
        return {
          items: rows.map(query.fields === 'title' ? toTitleOnly : toCd),
          ...countOf(query),
          next,
        };
      });
    },

    summarize(query) {
      return inTurn(async () => {
        const next = await readPageEnd(query, readPart({ ...query, fields: 'title' }));
        return { ...countOf(query), next };
      });
    },

    async listVersion() {
      return reading(() => listVersion.get() as string);
    },

    async count() {
      return reading(() => countAll.get() as number);
    },

    seedOnce(records) {
      return writing(async () => {
        const cacheSize = db.pragma('cache_size', { simple: true });
        db.pragma(`cache_size = -${BULK_LOAD_CACHE_KIB}`);
        db.pragma('temp_store = FILE');
        try {
          const inserted = await batcher.run(() => {
            if (seeded.get() !== undefined) return 0;
            markSeeded.run(new Date().toISOString());
            if ((countAll.get() as number) > 0) return 0;
            return bulkLoad(db, records, insertRecord);
          });
          if (inserted > 0) analyzeWhenUseful(db);
          return inserted;
        } finally {
          db.pragma(`cache_size = ${cacheSize}`);
          db.pragma('temp_store = MEMORY');
          db.pragma('shrink_memory');
          // The load went through the WAL, as large as the data: empty it and give its space
          // back now rather than at the next stop.
          db.pragma('wal_checkpoint(TRUNCATE)');
        }
      });
    },

    async ping() {
      verifyFile();
      reading(() => ping.get());
    },

    writesFailing: () => failing,

    async close() {
      batcher.flush();
      statements.clear();
      db.close();
      file?.release?.();
    },
  };
}
