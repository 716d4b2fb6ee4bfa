import { openMongoStore } from './mongo.js';
import { openSqliteStore } from './sqlite.js';
import type { CdStore } from './store.js';

/** MongoDB when a URI is given, else the embedded SQLite file. */
export async function openStore(config: { mongodbUri?: string; dbPath: string }): Promise<CdStore> {
  return config.mongodbUri ? openMongoStore(config.mongodbUri) : openSqliteStore(config.dbPath);
}
