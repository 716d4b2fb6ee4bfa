import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseOrigins } from './http/cors.js';

const serviceRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface Config {
  port: number;
  host: string;
  /** The SQLite file, used when mongodbUri is not set. */
  dbPath: string;
  mongodbUri: string | undefined;
  /** Load seedFile into an empty store on its first start. */
  seed: boolean;
  seedFile: string;
  /** When set, writes need `Authorization: Bearer <apiToken>`. */
  apiToken: string | undefined;
  logRequests: boolean;
  /** Origins allowed to call the API from a browser (`CORS_ORIGINS`); none by default. */
  corsOrigins: string[];
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3003);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be an integer from 0 to 65535, not ${JSON.stringify(env.PORT)}`);
  }
  const seed = env.CD_SEED || 'true';
  if (seed !== 'true' && seed !== 'false') {
    throw new Error(`CD_SEED must be true or false, not ${JSON.stringify(env.CD_SEED)}`);
  }
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    dbPath: env.CD_DB_PATH || join(serviceRoot, 'data', 'cds.sqlite'),
    mongodbUri: env.MONGODB_URI || undefined,
    seed: seed === 'true',
    seedFile: env.CD_SEED_FILE || join(serviceRoot, '..', 'seeds', 'cds.json'),
    apiToken: env.CD_API_TOKEN || undefined,
    logRequests: env.LOG_REQUESTS !== 'false',
    corsOrigins: parseOrigins(env.CORS_ORIGINS, []),
  };
}
