import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { booleanSetting, integerSetting, readServerConfig, type ServerConfig } from 'service-kit';

const serviceRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface Config extends ServerConfig {
  /** The SQLite file, used when mongodbUri is not set. */
  dbPath: string;
  mongodbUri: string | undefined;
  /** How long to keep trying, with backoff, to reach MongoDB at start (MONGODB_CONNECT_TIMEOUT_MS). */
  mongodbConnectTimeoutMs: number;
  /** Load seedFile into an empty store on its first start. */
  seed: boolean;
  seedFile: string;
  /** When set, writes need `Authorization: Bearer <apiToken>`. */
  apiToken: string | undefined;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    // No CORS unless CORS_ORIGINS says so: the API's writes are not for any web page.
    ...readServerConfig(env, { port: 3003, corsOrigins: [] }),
    dbPath: env.CD_DB_PATH || join(serviceRoot, 'data', 'cds.sqlite'),
    mongodbUri: env.MONGODB_URI || undefined,
    // An empty value (as compose passes an unset one) means the default.
    mongodbConnectTimeoutMs: integerSetting(
      { MONGODB_CONNECT_TIMEOUT_MS: env.MONGODB_CONNECT_TIMEOUT_MS || undefined },
      'MONGODB_CONNECT_TIMEOUT_MS',
      30_000,
    ),
    seed: booleanSetting(env, 'CD_SEED', true),
    seedFile: env.CD_SEED_FILE || join(serviceRoot, '..', 'seeds', 'cds.json'),
    apiToken: env.CD_API_TOKEN || undefined,
  };
}
