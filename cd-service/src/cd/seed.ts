import { closeSync, openSync, readSync } from 'node:fs';
import { JSONParser } from '@streamparser/json';
import { Problems, recordLabel, SeedError } from 'service-kit';
import type { CdInput } from './schema.js';
import { checkCreate } from './validate.js';

/** How much of the file is read at once: the memory a seed costs does not grow with the file. */
const CHUNK_BYTES = 64 * 1024;

/** The text on one line: a log line, a terminal's last line, a container's exit message. */
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ');

const unreadable = (file: string, reason: string) =>
  new SeedError(oneLine(`${file}: cannot read the CDs: ${reason}`));
const notAnArray = (file: string) =>
  new SeedError(`${file}: invalid CDs: the file must hold a JSON array of CDs`);

/**
 * Reads the seed file as a stream, a chunk at a time, and yields after each chunk the entries
 * of the top-level array parsed in it: the file is never whole in memory. A file that cannot be
 * read, is not JSON or not an array throws a SeedError of one line naming the file.
 */
function* entryChunks(file: string): Generator<unknown[]> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw unreadable(file, (error as Error).message);
  }
  try {
    const parser = new JSONParser({ paths: ['$.*'], keepStack: false });
    let parsed: unknown[] = [];
    parser.onValue = ({ value, parent }) => {
      if (!Array.isArray(parent)) throw notAnArray(file);
      parsed.push(value);
    };
    const buffer = Buffer.alloc(CHUNK_BYTES);
    let start = '';
    for (;;) {
      let read: number;
      try {
        read = readSync(fd, buffer, 0, buffer.length, null);
      } catch (error) {
        throw unreadable(file, (error as Error).message);
      }
      if (read === 0) break;
      const chunk = buffer.subarray(0, read);
      // What the document starts with: an array, or something else (refused once it parses).
      if (start === '')
        start = chunk
          .toString('latin1')
          .replace(/^[\s\uFEFF\u00bb\u00bf\u00ef]+/, '')
          .slice(0, 1);
      try {
        parser.write(chunk);
      } catch (error) {
        if (error instanceof SeedError) throw error;
        throw unreadable(file, `not valid JSON: ${(error as Error).message}`);
      }
      if (parsed.length > 0) {
        yield parsed;
        parsed = [];
      }
    }
    if (start === '') throw unreadable(file, 'not valid JSON: the file holds no value');
    if (!parser.isEnded) {
      try {
        // A number at the top ends only here; anything else unfinished is an error.
        parser.end();
      } catch (error) {
        throw unreadable(file, `not valid JSON: ${(error as Error).message}`);
      }
    }
    if (start !== '[') throw notAnArray(file);
  } finally {
    closeSync(fd);
  }
}

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
  for (const entries of entryChunks(file)) {
    for (const entry of entries) {
      const checked = checkCreate(entry, now);
      if (!checked.ok) {
        const where = recordLabel('CD', index, entry);
        for (const d of checked.details) problems.add(`${where}: field "${d.field}" ${d.message}`);
      }
      index += 1;
    }
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
  for (const entries of entryChunks(file)) {
    for (const entry of entries) {
      const checked = checkCreate(entry, now);
      if (!checked.ok) throw new SeedError(`${file}: changed while it was read`);
      yield checked.value;
    }
  }
}

/** The whole sample collection, checked (checkSeed), for small files and tests. */
export function loadSeed(file: string, now: Date = new Date()): CdInput[] {
  checkSeed(file, now);
  return [...seedCds(file, now)];
}
