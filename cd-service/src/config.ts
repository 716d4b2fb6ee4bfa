import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { envSetting, readServerConfig, type ServerConfig } from 'service-kit';

const serviceRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The folder of the default SQLite file, the only folder the service creates: a CD_DB_PATH in a
 * folder that does not exist is refused (a typo or a missing volume would look like data loss).
 */
export const DEFAULT_DATA_FOLDER = join(serviceRoot, 'data');

export interface Config extends ServerConfig {
  /** The SQLite file, used when mongodbUri is not set. */
  dbPath: string;
  mongodbUri: string | undefined;
  /** How long to keep trying, with backoff, to reach MongoDB at start (MONGODB_CONNECT_TIMEOUT_MS). */
  mongodbConnectTimeoutMs: number;
  /** How long a request waits for MongoDB before its 503 (MONGODB_TIMEOUT_MS). */
  mongodbTimeoutMs: number;
  /** How long /healthz and /readyz wait for MongoDB before their 503 (MONGODB_HEALTH_TIMEOUT_MS). */
  mongodbHealthTimeoutMs: number;
  /** Load seedFile into an empty store on its first start. */
  seed: boolean;
  seedFile: string;
  /** When set, writes need `Authorization: Bearer <apiToken>`. */
  apiToken: string | undefined;
}

/**
 * How long a request waits for MongoDB: a request answers 503 within 5 s when MongoDB does not
 * answer (hung, stopped, cut off), with a margin for the rest of the request's work.
 */
export const DEFAULT_MONGODB_TIMEOUT_MS = 4000;
/** How long a health check waits for MongoDB: /healthz and /readyz answer within 2 s. */
export const DEFAULT_MONGODB_HEALTH_TIMEOUT_MS = 1500;

/** An integer setting in milliseconds; an empty value (as compose passes an unset one) is the default. */
const milliseconds = (env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0) =>
  envSetting({ [name]: env[name] || undefined }, name, fallback, { min });

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    // No CORS unless CORS_ORIGINS says so: the API's writes are not for any web page.
    ...readServerConfig(env, { port: 3003, corsOrigins: [] }),
    dbPath: env.CD_DB_PATH || join(DEFAULT_DATA_FOLDER, 'cds.sqlite'),
    mongodbUri: env.MONGODB_URI || undefined,
    mongodbConnectTimeoutMs: milliseconds(env, 'MONGODB_CONNECT_TIMEOUT_MS', 30_000),
    mongodbTimeoutMs: milliseconds(env, 'MONGODB_TIMEOUT_MS', DEFAULT_MONGODB_TIMEOUT_MS, 1),
    mongodbHealthTimeoutMs: milliseconds(
      env,
      'MONGODB_HEALTH_TIMEOUT_MS',
      DEFAULT_MONGODB_HEALTH_TIMEOUT_MS,
      1,
    ),
    seed: envSetting(env, 'CD_SEED', true),
    seedFile: env.CD_SEED_FILE || join(serviceRoot, '..', 'seeds', 'cds.json'),
    apiToken: apiTokenSetting(env.CD_API_TOKEN),
  };
}

/**
 * CD_API_TOKEN: unset or empty for none; else a token that `Authorization: Bearer <token>` can
 * carry, visible ASCII characters only (U+0021-U+007E). A space, a control character or a
 * non-ASCII character could never be matched: the service would start and no write could ever
 * authenticate. The message says what is wrong, never the token.
 */
export function apiTokenSetting(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (/^[\x21-\x7e]+$/.test(raw)) return raw;
  const problem =
    raw.trim() === ''
      ? 'is only whitespace'
      : /[\s]/.test(raw)
        ? 'contains whitespace'
        : /\p{Cc}/u.test(raw)
          ? 'contains a control character'
          : 'contains a character outside visible ASCII';
  throw new Error(
    `CD_API_TOKEN ${problem}: no Authorization header could carry it; use visible ASCII characters only (letters, digits, punctuation), or leave it empty for open writes`,
  );
}
