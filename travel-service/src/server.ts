import { runService } from 'service-kit';
import { createApp } from './app.js';
import { readConfig } from './config.js';
import { planItineraries } from './itineraries/itineraries.js';
import { loadDestinations } from './itineraries/load.js';
import { newSeed } from './itineraries/random.js';

await runService('travel-service', async (logger) => {
  const config = readConfig();
  const seed = config.itinerarySeed ?? newSeed();
  const { records, version } = await loadDestinations(config.destinationsFile);
  const itineraries = planItineraries(records, seed, version);
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
