import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readServerConfig, type ServerConfig } from 'service-kit';

const serviceRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface Config extends ServerConfig {
  destinationsFile: string;
  /** Seeds the itineraries so that replicas agree; undefined: a random seed. */
  itinerarySeed: string | undefined;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    ...readServerConfig(env, { port: 3002, corsOrigins: ['*'] }),
    destinationsFile:
      env.DESTINATIONS_FILE || join(serviceRoot, '..', 'seeds', 'destinations.json'),
    itinerarySeed: env.ITINERARY_SEED || undefined,
  };
}
