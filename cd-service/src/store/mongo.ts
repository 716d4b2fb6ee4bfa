import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import mongoose, { type Connection, type ConnectOptions, Schema } from 'mongoose';
import type { Logger } from 'service-kit';
import { VersionMismatch } from '../cd/errors.js';
import {
  COUNT_LIMIT,
  type Condition,
  cappedTotal,
  isTotalExact,
  type ListQuery,
  readPage,
  readPageEnd,
} from '../cd/query.js';
import { type CdRecord, toCd, toTitleOnly } from '../cd/schema.js';
import { guarded, isUnavailable, mongoHosts } from './mongo-errors.js';
import { cdMongooseSchema, toMongo, VERSION_PATH } from './mongo-schema.js';
import { type CdStore, isConditional, type VersionCondition } from './store.js';

export interface MongoOptions {
  /** The database, when not the one named by the URI (the tests use a fresh one). */
  dbName?: string;
  /** How long to wait for a server before failing a command: a down MongoDB fails fast. */
  serverSelectionTimeoutMS?: number;
  /**
   * How long to keep trying, with backoff, to reach a MongoDB that does not answer at start
   * (it may start after the service); 0, the default, tries once.
   */
  connectTimeoutMs?: number;
  /**
   * How long a request's operation waits for MongoDB before the store is unavailable: its
   * deadline, also the driver's socket and connection timeouts and the server's time limit of a
   * query.
   */
  timeoutMs?: number;
  /** How long a ping (the health check) waits before it fails. */
  healthTimeoutMs?: number;
  /** Where the retries of the start, and answers that came after their deadline, are told. */
  logger?: Logger;
}

const DEFAULT_SERVER_SELECTION_TIMEOUT_MS = 3000;
const DEFAULT_TIMEOUT_MS = 4000;
const DEFAULT_HEALTH_TIMEOUT_MS = 1500;
const FIRST_RETRY_DELAY_MS = 250;
/** How many seed documents one insertMany sends. */
const SEED_BATCH_SIZE = 1000;
const MAX_RETRY_DELAY_MS = 5000;

type Doc = Record<string, unknown>;

/** A new CD's document (the schema sets its version: 1). */
const toDocument = ({ id, ...rest }: CdRecord) => ({ _id: id, ...rest });

const toVersioned = (doc: Doc) => ({ cd: toCd(doc), version: doc[VERSION_PATH] as number });

/** The filter of a write to the CD `id` under `condition`. */
const writeFilter = (id: string, condition: VersionCondition = {}) => ({
  _id: { $eq: id },
  ...(isConditional(condition) && {
    [VERSION_PATH]: {
      ...(condition.in && { $in: [...condition.in] }),
      ...(condition.notIn && { $nin: [...condition.notIn] }),
    },
  }),
});

/** The MongoDB store, through Mongoose on a connection of its own. */
export async function openMongoStore(uri: string, options: MongoOptions = {}): Promise<CdStore> {
  const connection = await connect(uri, options);
  try {
    return await storeOn(connection, options);
  } catch (error) {
    await connection.close().catch(() => {});
    throw new Error(`MongoDB at ${mongoHosts(uri)} failed while opening the store: ${why(error)}`, {
      cause: error,
    });
  }
}

/** What went wrong, with the driver's own words when the error wraps them. */
function why(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}

function connectionOptions(
  options: MongoOptions,
  serverSelectionTimeoutMS: number,
): ConnectOptions {
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    ...(options.dbName ? { dbName: options.dbName } : {}),
    serverSelectionTimeoutMS: Math.min(serverSelectionTimeoutMS, timeout),
    // A server that accepts connections but does not answer (a stopped process, a hung host):
    // a connection waiting for an answer, and a new one waiting for its handshake, is closed
    // after the request's time. The monitor's check waits as long, then the server is marked
    // unknown and requests fail at once rather than each waiting for its deadline.
    socketTimeoutMS: timeout,
    connectTimeoutMS: timeout,
    // Fail at once when disconnected rather than queueing commands.
    bufferCommands: false,
    autoIndex: false,
    // Acknowledged means journaled (and on a majority of a replica set).
    writeConcern: { w: 'majority', journal: true },
  };
}

/**
 * A connection to MongoDB. While it does not answer (refused, timing out, no server to select),
 * tries again with a doubling delay until `connectTimeoutMs` has passed, no attempt waiting
 * beyond it; then fails with a message naming the hosts (never the credentials). Any other
 * failure (a malformed URI, refused credentials) fails at once.
 */
async function connect(uri: string, options: MongoOptions): Promise<Connection> {
  const selectionTimeout = options.serverSelectionTimeoutMS ?? DEFAULT_SERVER_SELECTION_TIMEOUT_MS;
  const patience = options.connectTimeoutMs ?? 0;
  const deadline = Date.now() + patience;
  const hosts = mongoHosts(uri);
  let delay = FIRST_RETRY_DELAY_MS;
  for (let attempt = 1; ; attempt++) {
    // The last attempts wait no longer than the time left (a little at least).
    const left = deadline - Date.now();
    const timeout =
      patience > 0 ? Math.min(selectionTimeout, Math.max(left, 100)) : selectionTimeout;
    let connection: Connection | undefined;
    try {
      connection = mongoose.createConnection(uri, connectionOptions(options, timeout));
      await connection.asPromise();
      if (timeout === selectionTimeout) return connection;
      // Reached with a shortened wait: open it again with the configured one for the commands.
      await connection.close();
      connection = mongoose.createConnection(uri, connectionOptions(options, selectionTimeout));
      return await connection.asPromise();
    } catch (error) {
      await connection?.close().catch(() => {});
      const attempts = attempt === 1 ? '1 attempt' : `${attempt} attempts`;
      const waited = patience > 0 ? ` within ${patience} ms (${attempts})` : '';
      const reason = why(error);
      if (!isUnavailable(error)) {
        throw new Error(`MongoDB at ${hosts} cannot be used: ${reason}`, { cause: error });
      }
      const wait = Math.min(delay, deadline - Date.now());
      if (wait <= 0) {
        throw new Error(`MongoDB at ${hosts} did not answer${waited}: ${reason}`, { cause: error });
      }
      options.logger?.warn(
        { hosts, attempt, retryInMs: wait, error: reason },
        'MongoDB does not answer yet; trying again',
      );
      await sleep(wait);
      delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
    }
  }
}

async function storeOn(connection: Connection, options: MongoOptions): Promise<CdStore> {
  const Cds = connection.model('Cd', cdMongooseSchema());
  const Meta = connection.model(
    'Meta',
    new Schema(
      { _id: String, at: Date, epoch: String, version: Number },
      { collection: 'meta', versionKey: false },
    ),
  );
  /**
   * The collection's version (listVersion), in the document `list` of `meta`: with no
   * transactions on a standalone server, it is raised after each write, before the write is
   * answered, and once at every start (for a write whose process died before raising it).
   */
  const raiseListVersion = () =>
    Meta.updateOne(
      { _id: 'list' },
      { $setOnInsert: { epoch: randomUUID() }, $inc: { version: 1 } },
      { upsert: true },
    );
  await guarded(raiseListVersion);
  /**
   * Runs a write, then raises the list version before the write is answered: when it changed a
   * CD, and when it failed, since a write that failed (its answer timed out) may still be applied.
   * The raise after a failure is best effort.
   */
  const changing = async <T>(write: () => Promise<T>, changed: (result: T) => boolean) => {
    let result: T;
    try {
      result = await write();
    } catch (error) {
      await raiseListVersion().catch(() => {});
      throw error;
    }
    if (changed(result)) await raiseListVersion();
    return result;
  };
  await guarded(() => Cds.createIndexes());
  // CDs written before versions were kept are at version 1 (idempotent: two starts may both run it).
  await guarded(() =>
    Cds.updateMany({ [VERSION_PATH]: { $exists: false } }, { $set: { [VERSION_PATH]: 1 } }),
  );
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const healthTimeout = options.healthTimeoutMs ?? DEFAULT_HEALTH_TIMEOUT_MS;
  /** An operation of a request: StoreUnavailable once `timeout` passes without an answer. */
  const request = <T>(operation: string, run: () => Promise<T>) =>
    guarded(run, { ms: timeout, operation, ...(options.logger && { logger: options.logger }) });
  /**
   * After a write changed nothing: when it had a condition and the CD is there, the CD was at a
   * version the condition excludes. (Deleted meanwhile, it is missing: a 404 either way.)
   */
  const refuseWhenStale = async (id: string, condition: VersionCondition | undefined) => {
    if (isConditional(condition) && (await Cds.exists({ _id: { $eq: id } }))) {
      throw new VersionMismatch(id);
    }
  };

  /** Reads one part of a list's page (readPage). */
  const readPart = (query: ListQuery) => (where: Condition[], limit: number, offset: number) => {
    const part = toMongo(query, { where, limit, offset });
    return Cds.find(part.filter, part.projection)
      .collation(part.collation)
      .sort(part.sort)
      .skip(part.skip)
      .limit(part.limit)
      .maxTimeMS(timeout)
      .lean<Doc[]>();
  };
  /** A list's total: exact with no filter or one equality; else counting stops past COUNT_LIMIT. */
  const countOf = async (query: ListQuery) => {
    const { filter, collation } = toMongo(query);
    const counted = await Cds.countDocuments(filter, {
      ...(!isTotalExact(query) && { limit: COUNT_LIMIT + 1 }),
    })
      .collation(collation)
      .maxTimeMS(timeout);
    return cappedTotal(query, counted);
  };

  return {
    kind: 'mongodb',

    insert: (record) =>
      request('insert', async () => {
        await changing(
          () => Cds.create(toDocument(record)),
          () => true,
        );
        return { cd: toCd(record), version: 1 };
      }),

    get: (id) =>
      request('get', async () => {
        const doc = await Cds.findById(id).maxTimeMS(timeout).lean<Doc>();
        return doc ? toVersioned(doc) : undefined;
      }),

    // One conditional update: the version check is in its filter, the increment in its update.
    update: (id, changes, condition) =>
      request('update', async () => {
        const doc = await changing(
          () =>
            Cds.findOneAndUpdate(
              writeFilter(id, condition),
              { $set: changes, $inc: { [VERSION_PATH]: 1 } },
              { returnDocument: 'after', runValidators: true, maxTimeMS: timeout },
            ).lean<Doc>(),
          (found) => found !== null,
        );
        if (doc) return toVersioned(doc);
        await refuseWhenStale(id, condition);
        return undefined;
      }),

    delete: (id, condition) =>
      request('delete', async () => {
        const result = await changing(
          () => Cds.deleteOne(writeFilter(id, condition)),
          (deleted) => deleted.deletedCount > 0,
        );
        if (result.deletedCount > 0) return true;
        await refuseWhenStale(id, condition);
        return false;
      }),

    list: (query) =>
      request('list', async () => {
        const [{ rows, next }, total] = await Promise.all([
          readPage(query, readPart(query)),
          countOf(query),
        ]);
        return { items: rows.map(query.fields === 'title' ? toTitleOnly : toCd), ...total, next };
      }),

    summarize: (query) =>
      request('list', async () => {
        const [next, total] = await Promise.all([
          readPageEnd(query, readPart({ ...query, fields: 'title' })),
          countOf(query),
        ]);
        return { ...total, next };
      }),

    listVersion: () =>
      request('list', async () => {
        const list = await Meta.findById('list').maxTimeMS(timeout).lean<Doc>();
        return `${list?.epoch}.${list?.version}`;
      }),

    count: () => request('count', () => Cds.countDocuments({}).maxTimeMS(timeout)),

    seedOnce: (records) =>
      guarded(async () => {
        // Only the start that creates the marker may seed, even if two start at once.
        const marker = await Meta.updateOne(
          { _id: 'seeded' },
          { $setOnInsert: { at: new Date() } },
          { upsert: true },
        );
        if (marker.upsertedCount !== 1 || (await Cds.countDocuments({})) > 0) return 0;
        const ids: string[] = [];
        let batch: ReturnType<typeof toDocument>[] = [];
        const insert = async () => {
          await Cds.insertMany(batch, { ordered: true });
          batch = [];
        };
        try {
          for (const record of records) {
            batch.push(toDocument(record));
            ids.push(record.id);
            if (batch.length === SEED_BATCH_SIZE) await insert();
          }
          if (batch.length > 0) await insert();
        } catch (error) {
          // A load that fails keeps nothing, as SQLite's transaction does (MongoDB has none
          // without a replica set): what it inserted goes, and the marker, so a start seeds again.
          for (let at = 0; at < ids.length; at += SEED_BATCH_SIZE) {
            await Cds.deleteMany({ _id: { $in: ids.slice(at, at + SEED_BATCH_SIZE) } });
          }
          await Meta.deleteOne({ _id: 'seeded' });
          throw error;
        }
        await raiseListVersion();
        return ids.length;
      }),

    ping: () =>
      guarded(
        async () => {
          const db = connection.db;
          if (!db) throw new Error('MongoDB is not connected');
          await db.command({ ping: 1 });
        },
        { ms: healthTimeout, operation: 'ping' },
      ),

    // A mongod whose disk is full stops serving (WiredTiger ends it): the ping sees that.
    writesFailing: () => false,

    async close() {
      await connection.close();
    },
  };
}
