import { seedFile } from 'service-kit';
import type { CdInput } from './schema.js';
import { checkCreate } from './validate.js';

/** The seed file's CDs, each checked like a POST body with the clock of `now` (the latest year). */
const cdsFile = (now: Date) =>
  seedFile<CdInput>({
    what: 'CDs',
    record: 'CD',
    checkEntry: (entry) => checkCreate(entry, now),
  });

/**
 * Checks every entry of the seed file like a POST body, streaming it: how many CDs it holds, and
 * `records()`, its CDs trimmed as a POST body is, one at a time as the file is read again (what
 * is in memory is one chunk of the file and its entries). A file that cannot be read, is not
 * JSON, is not an array or holds bad entries throws a SeedError of one line naming the file and,
 * for each bad entry (the first twenty, then how many more), its index, its title and the field;
 * a file that is no longer the one checked throws from `records()`, at its last entry at the
 * latest, so that the store's load keeps none of it.
 */
export const checkSeed = (file: string, now: Date = new Date()) => cdsFile(now).scan(file);

/** The whole sample collection, checked (checkSeed), for small files and tests. */
export const loadSeed = (file: string, now: Date = new Date()): CdInput[] => [
  ...checkSeed(file, now).records(),
];
