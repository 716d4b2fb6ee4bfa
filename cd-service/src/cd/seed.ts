import { loadSeedFile, recordLabel, SeedError } from 'service-kit';
import type { CdInput } from './schema.js';
import { ajv, checkCreate } from './validate.js';

const isArray = ajv.compile<unknown[]>({ type: 'array' });

/** How many bad entries the message lists; it counts the others. */
const LISTED_PROBLEMS = 10;

/** The text on one line: a log line, a terminal's last line, a container's exit message. */
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ');

/**
 * The sample collection, every entry checked like a POST body (with the clock of `now` for the
 * latest year) and trimmed. A file that cannot be read, is not JSON, is not an array or holds
 * bad entries throws a SeedError of one line naming the file and, for each bad entry (the first
 * ten, then how many more), its index, its title and the field.
 */
export function loadSeed(file: string, now: Date = new Date()): CdInput[] {
  const cds: CdInput[] = [];
  const problems: string[] = [];
  try {
    loadSeedFile(file, {
      what: 'CDs',
      validate: isArray,
      describe: () => 'the file must hold a JSON array of CDs',
      check: (entries) => {
        entries.forEach((entry, index) => {
          const checked = checkCreate(entry, now);
          if (checked.ok) cds.push(checked.value);
          else {
            const where = recordLabel('CD', index, entry);
            for (const d of checked.details)
              problems.push(`${where}: field "${d.field}" ${d.message}`);
          }
        });
        return [];
      },
    });
  } catch (error) {
    if (error instanceof SeedError) throw new SeedError(oneLine(error.message));
    throw error;
  }
  if (problems.length > 0) {
    const more = problems.length - LISTED_PROBLEMS;
    const listed = problems.slice(0, LISTED_PROBLEMS).join('; ');
    throw new SeedError(
      `${file}: invalid CDs: ${listed}${more > 0 ? `; and ${more} more problems` : ''}`,
    );
  }
  return cds;
}
