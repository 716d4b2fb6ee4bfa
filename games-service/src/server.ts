import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { runService } from 'service-kit';
import { createApp } from './app.js';
import { Catalogue } from './catalogue/catalogue.js';
import { loadGames } from './catalogue/load.js';
import { readConfig } from './config.js';

await runService('games-service', (logger) => {
  const config = readConfig();
  const version = hash('sha1', readFileSync(config.gamesFile), 'base64url').slice(0, 16);
  const catalogue = new Catalogue(loadGames(config.gamesFile), version);
  return {
    app: createApp({ catalogue, logger, ...config }),
    config,
    details: { games: catalogue.size },
  };
});
