import { createLogger, serve } from 'service-kit';
import { createApp } from './app.js';
import { readConfig } from './config.js';
import { planItineraries } from './itineraries/itineraries.js';
import { loadDestinations } from './itineraries/load.js';
import { newSeed } from './itineraries/random.js';

const logger = createLogger('travel-service');
try {
  const config = readConfig();
  const destinations = loadDestinations(config.destinationsFile);
  const seed = config.itinerarySeed ?? newSeed();
  const itineraries = planItineraries(destinations, seed);
  logger.info(
    {
      seed,
      seedFrom: config.itinerarySeed === undefined ? 'random' : 'ITINERARY_SEED',
      destinations: itineraries.size,
    },
    'itineraries generated',
  );
  const app = createApp({ itineraries, logger, ...config });
  const url = await serve(app, { ...config, logger });
  logger.info({ url, destinations: itineraries.size }, 'travel-service listening');
} catch (error) {
  logger.error({ error: (error as Error).message }, 'travel-service cannot start');
  process.exit(1);
}
