import { randomUUID } from 'node:crypto';
import { createApp } from './app.js';
import { newRecord } from './cd/records.js';
import { loadSeed } from './cd/seed.js';
import { readConfig } from './config.js';
import { createLogger } from './log.js';
import { serve } from './serve.js';
import { openStore } from './store/open.js';
import type { CdStore } from './store/store.js';

const logger = createLogger();
let store: CdStore | undefined;
try {
  const config = readConfig();
  const seed = config.seed ? loadSeed(config.seedFile) : [];
  store = await openStore(config);
  if (config.seed) {
    const now = new Date();
    const loaded = await store.seedOnce(seed.map((cd) => newRecord(cd, randomUUID(), now)));
    if (loaded > 0)
      logger.info('loaded the sample collection', { cds: loaded, file: config.seedFile });
  }
  if (!config.apiToken) {
    logger.warn('CD_API_TOKEN is not set: anyone can create, change and delete CDs');
  }
  const app = createApp({
    store,
    logger,
    apiToken: config.apiToken,
    logRequests: config.logRequests,
    corsOrigins: config.corsOrigins,
  });
  const opened = store;
  const url = await serve(app, config, logger, () => opened.close());
  logger.info('cd-service listening', {
    url,
    store: store.kind,
    cds: await store.count(),
  });
} catch (error) {
  logger.error('cd-service cannot start', { error: (error as Error).message });
  await store?.close().catch(() => {});
  process.exit(1);
}
