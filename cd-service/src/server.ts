import { randomUUID } from 'node:crypto';
import { runService } from 'service-kit';
import { createApp } from './app.js';
import { newRecord } from './cd/records.js';
import { loadSeed } from './cd/seed.js';
import { readConfig } from './config.js';
import { openStore } from './store/open.js';

await runService('cd-service', async (logger) => {
  const config = readConfig();
  const seed = config.seed ? loadSeed(config.seedFile) : [];
  const store = await openStore(config, logger);
  try {
    if (config.seed) {
      const now = new Date();
      const loaded = await store.seedOnce(seed.map((cd) => newRecord(cd, randomUUID(), now)));
      if (loaded > 0)
        logger.info({ cds: loaded, file: config.seedFile }, 'loaded the sample collection');
    }
    if (!config.apiToken) {
      logger.warn('CD_API_TOKEN is not set: anyone can create, change and delete CDs');
    }
    return {
      app: createApp({ store, logger, ...config }),
      config,
      onClose: () => store.close(),
      facts: { store: store.kind, cds: await store.count() },
    };
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
});
