import { createApp } from './app.js';
import { Catalogue } from './catalogue/catalogue.js';
import { loadGames } from './catalogue/load.js';
import { readConfig } from './config.js';
import { createLogger } from './log.js';
import { serve } from './serve.js';

const logger = createLogger();
try {
  const config = readConfig();
  const catalogue = new Catalogue(loadGames(config.gamesFile));
  const app = createApp({
    catalogue,
    logger,
    logRequests: config.logRequests,
    corsOrigins: config.corsOrigins,
  });
  const url = await serve(app, config, logger);
  logger.info('games-service listening', { url, games: catalogue.size });
} catch (error) {
  logger.error('games-service cannot start', { error: (error as Error).message });
  process.exit(1);
}
