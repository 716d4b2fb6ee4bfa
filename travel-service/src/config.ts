import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseOrigins } from './http/cors.js';

const serviceRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface Config {
  port: number;
  host: string;
  destinationsFile: string;
  /** Seeds the itineraries so that replicas agree; undefined: a random seed. */
  itinerarySeed: string | undefined;
  logRequests: boolean;
  corsOrigins: string[];
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3002);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be an integer from 0 to 65535, not ${JSON.stringify(env.PORT)}`);
  }
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    destinationsFile:
      env.DESTINATIONS_FILE ?? join(serviceRoot, '..', 'seeds', 'destinations.json'),
    itinerarySeed: env.ITINERARY_SEED === '' ? undefined : env.ITINERARY_SEED,
    logRequests: env.LOG_REQUESTS !== 'false',
    corsOrigins: parseOrigins(env.CORS_ORIGINS, ['*']),
  };
}
