import { Problems, recordLabel, SeedError, seedEntries } from 'service-kit';
import type { CdInput } from './schema.js';
import { checkCreate } from './validate.js';

/**
 * Checks every entry of the seed file like a POST body (with the clock of `now` for the latest
 * year), streaming it, and returns how many CDs it holds. A file that cannot be read, is not
 * JSON, is not an array or holds bad entries throws a SeedError of one line naming the file
 * and, for each bad entry (the first twenty, then how many more), its index, its title and
 * the field.
 */
export function checkSeed(file: string, now: Date = new Date()): number {
  const problems = new Problems();
  let index = 0;
  for (const entry of seedEntries(file, 'CDs')) {
    const checked = checkCreate(entry, now);
    if (!checked.ok) {
      const where = recordLabel('CD', index, entry);
      for (const d of checked.details) problems.add(`${where}: field "${d.field}" ${d.message}`);
    }
    index += 1;
  }
  if (problems.total > 0) {
    throw new SeedError(`${file}: invalid CDs: ${problems.lines().join('; ')}`);
  }
  return index;
}

/**
 * The CDs of a seed file that checkSeed accepted, trimmed as a POST body is, one at a time as
 * the file is read: what is in memory is one chunk of the file and its entries.
 */
export function* seedCds(file: string, now: Date = new Date()): Generator<CdInput> {
  for (const entry of seedEntries(file, 'CDs')) {
    const checked = checkCreate(entry, now);
    if (!checked.ok) throw new SeedError(`${file}: changed while it was read`);
    yield checked.value;
  }
}

/** The whole sample collection, checked (checkSeed), for small files and tests. */
export function loadSeed(file: string, now: Date = new Date()): CdInput[] {
  checkSeed(file, now);
  return [...seedCds(file, now)];
}
