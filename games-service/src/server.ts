import { createLogger, serve } from 'service-kit';
import { createApp } from './app.js';
import { Catalogue } from './catalogue/catalogue.js';
import { loadGames } from './catalogue/load.js';
import { readConfig } from './config.js';

const logger = createLogger('games-service');
try {
  const config = readConfig();
  const catalogue = new Catalogue(loadGames(config.gamesFile));
  const app = createApp({ catalogue, logger, ...config });
  const url = await serve(app, { ...config, logger });
  logger.info({ url, games: catalogue.size }, 'games-service listening');
} catch (error) {
  logger.error({ error: (error as Error).message }, 'games-service cannot start');
  process.exit(1);
}
