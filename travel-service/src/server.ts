import { createApp } from './app.js';
import { readConfig } from './config.js';
import { planItineraries } from './itineraries/itineraries.js';
import { loadDestinations } from './itineraries/load.js';
import { newSeed } from './itineraries/random.js';
import { createLogger } from './log.js';
import { serve } from './serve.js';

const logger = createLogger();
try {
  const config = readConfig();
  const destinations = loadDestinations(config.destinationsFile);
  const seed = config.itinerarySeed ?? newSeed();
  const itineraries = planItineraries(destinations, seed);
  logger.info('itineraries generated', {
    seed,
    seedFrom: config.itinerarySeed === undefined ? 'random' : 'ITINERARY_SEED',
    destinations: itineraries.size,
  });
  const app = createApp({
    itineraries,
    logger,
    logRequests: config.logRequests,
    corsOrigins: config.corsOrigins,
  });
  const url = await serve(app, config, logger);
  logger.info('travel-service listening', { url, destinations: itineraries.size });
} catch (error) {
  logger.error('travel-service cannot start', { error: (error as Error).message });
  process.exit(1);
}
