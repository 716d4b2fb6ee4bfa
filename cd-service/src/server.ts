import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { runService } from 'service-kit';
import { createApp } from './app.js';
import { newRecord } from './cd/records.js';
import type { CdInput } from './cd/schema.js';
import { checkSeed } from './cd/seed.js';
import { DEFAULT_DATA_FOLDER, readConfig } from './config.js';
import { openStore, startFailure } from './store/open.js';
import { isNewDatabaseFile } from './store/sqlite.js';

await runService('cd-service', async (logger) => {
  const config = readConfig();
  const now = new Date();
  // A new SQLite file is made only once the seed it will get is known to be good: a bad seed
  // file stops the start before anything is created. The check streams the file; the load
  // streams it again.
  let seed =
    config.seed && !config.mongodbUri && isNewDatabaseFile(config.dbPath)
      ? checkSeed(config.seedFile, now)
      : undefined;
  // Only the default data folder is created; any other folder must exist (the store says so).
  if (!config.mongodbUri && resolve(dirname(config.dbPath)) === DEFAULT_DATA_FOLDER) {
    mkdirSync(DEFAULT_DATA_FOLDER, { recursive: true });
  }
  const store = await openStore(config, logger);
  try {
    // The seed is read only for a store that holds no CD: a broken seed file cannot stop a
    // service that has its data.
    if (config.seed && (await store.count()) === 0) {
      seed ??= checkSeed(config.seedFile, now);
      const records = function* (cds: Iterable<CdInput>) {
        for (const cd of cds) yield newRecord(cd, randomUUID(), now);
      };
      const loaded = await store.seedOnce(records(seed.records()));
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
      details: { store: store.kind, cds: await store.count() },
    };
  } catch (error) {
    await store.close().catch(() => {});
    throw startFailure(error, config);
  }
});
