import { runService } from 'service-kit';
import { createApp } from './app.js';
import { Catalogue } from './catalogue/catalogue.js';
import { loadGames } from './catalogue/load.js';
import { readConfig } from './config.js';

await runService('games-service', (logger) => {
  const config = readConfig();
  const catalogue = new Catalogue(loadGames(config.gamesFile));
  return {
    app: createApp({ catalogue, logger, ...config }),
    config,
    details: { games: catalogue.size },
  };
});
