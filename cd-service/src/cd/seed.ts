import { loadSeedFile, recordLabel } from 'service-kit';
import type { CdInput } from './schema.js';
import { ajv, checkCreate } from './validate.js';

const isArray = ajv.compile<unknown[]>({ type: 'array' });

/**
 * The sample collection, every entry checked like a POST body (with the clock of `now` for the
 * latest year) and trimmed. A file that cannot be read, is not JSON, is not an array or holds
 * bad entries throws a SeedError naming the file and, for each bad entry, its index, its title
 * and the field.
 */
export function loadSeed(file: string, now: Date = new Date()): CdInput[] {
  const cds: CdInput[] = [];
  loadSeedFile(file, {
    what: 'CDs',
    validate: isArray,
    describe: () => 'the file must hold a JSON array of CDs',
    check: (entries) =>
      entries.flatMap((entry, index) => {
        const checked = checkCreate(entry, now);
        if (checked.ok) {
          cds.push(checked.value);
          return [];
        }
        const where = recordLabel('CD', index, entry);
        return checked.details.map((d) => `${where}: field "${d.field}" ${d.message}`);
      }),
  });
  return cds;
}
