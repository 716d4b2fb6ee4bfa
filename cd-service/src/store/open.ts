import type { Logger } from 'service-kit';
import { openSqliteStore } from './sqlite.js';
import type { CdStore } from './store.js';

export interface StoreConfig {
  mongodbUri?: string | undefined;
  /** How long to keep trying to reach MongoDB at start (it may start after the service). */
  mongodbConnectTimeoutMs?: number | undefined;
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
    ...(logger && { logger }),
  });
}
