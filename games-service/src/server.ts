import { runService } from 'service-kit';
import { createApp } from './app.js';
import { Catalogue } from './catalogue/catalogue.js';
import { loadGames } from './catalogue/load.js';
import { readConfig } from './config.js';

await runService('games-service', async (logger) => {
  const config = readConfig();
  const { records, version } = await loadGames(config.gamesFile);
  const catalogue = new Catalogue(records, version);
  return {
    app: createApp({ catalogue, logger, ...config }),
    config,
    details: { games: catalogue.size },
  };
});
