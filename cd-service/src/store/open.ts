import { openSqliteStore } from './sqlite.js';
import type { CdStore } from './store.js';

/**
 * MongoDB when a URI is given, else the embedded SQLite file. The MongoDB store (and Mongoose,
 * some 24 MB of memory) is loaded only when it is used.
 */
export async function openStore(config: { mongodbUri?: string; dbPath: string }): Promise<CdStore> {
  if (!config.mongodbUri) return openSqliteStore(config.dbPath);
  const { openMongoStore } = await import('./mongo.js');
  return openMongoStore(config.mongodbUri);
}
