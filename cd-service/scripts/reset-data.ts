// `make reset-data`: puts the sample collection back. It deletes the SQLite file the service would
// open (CD_DB_PATH, as the service reads it), so that the next start creates it and loads the
// sample again. It holds the file's lock meanwhile, so it changes nothing while a cd-service uses it.
import { existsSync, rmSync } from 'node:fs';
import { readConfig } from '../src/config.js';
import { lockFile } from '../src/store/file-lock.js';

const { dbPath, mongodbUri, seedFile } = readConfig();
if (mongodbUri) {
  console.error(
    'make reset-data resets the SQLite file; with MONGODB_URI set, drop the database instead: the next start loads the sample into an empty one',
  );
  process.exit(1);
}
if (!existsSync(dbPath)) {
  console.log(
    `${dbPath} does not exist: the next start of cd-service loads the sample (${seedFile})`,
  );
  process.exit(0);
}
let lock: ReturnType<typeof lockFile>;
try {
  lock = lockFile(dbPath);
} catch (error) {
  console.error(`Nothing was reset: ${(error as Error).message}`);
  process.exit(1);
}
for (const suffix of ['', '-wal', '-shm']) rmSync(`${dbPath}${suffix}`, { force: true });
lock.release({ remove: true });
console.log(`${dbPath} removed: the next start of cd-service loads the sample (${seedFile})`);
