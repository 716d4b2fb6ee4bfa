import type { Logger } from 'service-kit';
import { StoreUnavailable } from '../cd/errors.js';
import { openSqliteStore } from './sqlite.js';
import type { CdStore } from './store.js';

export interface StoreConfig {
  mongodbUri?: string | undefined;
  /** How long to keep trying to reach MongoDB at start (it may start after the service). */
  mongodbConnectTimeoutMs?: number | undefined;
  /** How long a request, and a health check, wait for MongoDB before their 503. */
  mongodbTimeoutMs?: number | undefined;
  mongodbHealthTimeoutMs?: number | undefined;
  dbPath: string;
}

/**
 * MongoDB when a URI is given, else the embedded SQLite file. The MongoDB store (and Mongoose,
 * some 24 MB of memory) is loaded only when it is used.
 */
export async function openStore(config: StoreConfig, logger?: Logger): Promise<CdStore> {
  if (!config.mongodbUri) return openSqliteStore(config.dbPath);
  const { openMongoStore } = await import('./mongo.js');
  return openMongoStore(config.mongodbUri, {
    ...(config.mongodbConnectTimeoutMs !== undefined && {
      connectTimeoutMs: config.mongodbConnectTimeoutMs,
    }),
    ...(config.mongodbTimeoutMs !== undefined && { timeoutMs: config.mongodbTimeoutMs }),
    ...(config.mongodbHealthTimeoutMs !== undefined && {
      healthTimeoutMs: config.mongodbHealthTimeoutMs,
    }),
    ...(logger && { logger }),
  });
}

/**
 * What a store failure during the start is: not a passing trouble to try again later (as a
 * request is told), but the store's own reason, named after it: SQLite's "database disk image is
 * malformed (SQLITE_CORRUPT)" after the file's name. Other errors are kept as they are.
 */
export function startFailure(error: unknown, config: StoreConfig): unknown {
  if (!(error instanceof StoreUnavailable) || !(error.cause instanceof Error)) return error;
  const store = config.mongodbUri ? 'MongoDB' : config.dbPath;
  const code = (error.cause as { code?: unknown }).code;
  const reason = `${error.cause.message}${typeof code === 'string' ? ` (${code})` : ''}`;
  return new Error(`${store}: ${reason}`, { cause: error.cause });
}
