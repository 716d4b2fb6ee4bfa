// Hand-written: env-schema makes a second ajv instance on import and needs coerceTypes and removeAdditional, which the kit's one instance cannot take (they change how bodies and queries are judged).
export type ServerConfig = ReturnType<typeof readServerConfig>;

const DECIMAL = /^(0|[1-9][0-9]*)$/;

/** A setting from the environment: `true` or `false` (empty: the fallback), or a whole number. */
export function envSetting(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean;
export function envSetting(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  bounds?: { min?: number; max?: number },
): number;
export function envSetting(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number | boolean,
  { min = 0, max = Number.MAX_SAFE_INTEGER } = {},
): number | boolean {
  const raw = env[name];
  if (raw === undefined) return fallback;
  if (typeof fallback === 'boolean') {
    if (raw === '') return fallback;
    if (raw === 'true' || raw === 'false') return raw === 'true';
    throw new Error(`${name} must be true or false, not ${JSON.stringify(raw)}`);
  }
  const value = DECIMAL.test(raw) ? Number(raw) : Number.NaN;
  if (value >= min && value <= max) return value;
  throw new Error(
    `${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(raw)}`,
  );
}

export function readServerConfig(
  env: NodeJS.ProcessEnv,
  defaults: { port: number; corsOrigins: readonly string[] },
) {
  return {
    port: envSetting(env, 'PORT', defaults.port, { max: 65535 }),
    host: env.HOST || '127.0.0.1',
    logRequests: envSetting(env, 'LOG_REQUESTS', true),
    corsOrigins: env.CORS_ORIGINS?.split(',')
      .map((origin) => origin.trim())
      .filter(Boolean) ?? [...defaults.corsOrigins],
    metrics: envSetting(env, 'METRICS', true),
    shutdownDelayMs: envSetting(env, 'SHUTDOWN_DELAY_MS', 0, { max: 60_000 }),
  };
}
