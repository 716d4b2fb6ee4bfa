import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readServerConfig, type ServerConfig } from 'service-kit';

const serviceRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface Config extends ServerConfig {
  gamesFile: string;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    ...readServerConfig(env, { port: 3001, corsOrigins: ['*'] }),
    gamesFile: env.GAMES_FILE || join(serviceRoot, '..', 'seeds', 'games.json'),
  };
}
