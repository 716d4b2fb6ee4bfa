import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { runService } from 'service-kit';
import { createApp } from './app.js';
import { readConfig } from './config.js';
import { planItineraries } from './itineraries/itineraries.js';
import { loadDestinations } from './itineraries/load.js';
import { newSeed } from './itineraries/random.js';

await runService('travel-service', (logger) => {
  const config = readConfig();
  const seed = config.itinerarySeed ?? newSeed();
  const file = config.destinationsFile;
  const fileVersion = hash('sha1', readFileSync(file), 'base64url').slice(0, 16);
  const itineraries = planItineraries(loadDestinations(file), seed, fileVersion);
  logger.info(
    {
      seed,
      seedFrom: config.itinerarySeed === undefined ? 'random' : 'ITINERARY_SEED',
      destinations: itineraries.size,
    },
    'itineraries generated',
  );
  return {
    app: createApp({ itineraries, logger, ...config }),
    config,
    details: { destinations: itineraries.size },
  };
});
