import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import { JSONParser } from '@streamparser/json';
import type { AnySchema, ErrorObject } from 'ajv';
import type { ErrorDetail } from './errors.js';
import { compileSchema, Problems } from './validation.js';

export class SeedError extends Error {
  override name = 'SeedError';
}

/** One entry as a service checks it: its value, or what is wrong with it, field by field. */
type EntryCheck<T> = (
  entry: unknown,
) => { ok: true; value: T } | { ok: false; details: readonly ErrorDetail[] };

/**
 * See README.md: `nested` is `{ activities: 'activity' }`, `check` says what a schema cannot,
 * `keep` what a valid record is kept as (called as it arrives, so what it replaces dies young).
 */
type SeedRules<T> = {
  what: string;
  /** What one record is called in a problem: `record 3 ("Lisbon")`, `CD 3 ("Blue")`. */
  record?: string;
  check?: (records: T[], label: typeof recordLabel) => string[];
  keep?: (record: T) => T;
} & (
  | { recordSchema: AnySchema; nested?: Readonly<Record<string, string>> }
  | { checkEntry: EntryCheck<T> }
);

/** An entry's value, or its problems, each naming the record (by `label`) and the field. */
type Checked<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/** How each entry is checked: against the record's schema, or by the service's function. */
function entryCheck<T>(rules: SeedRules<T>, record: string) {
  const label = (index: number, entry: unknown) => recordLabel(record, index, entry);
  if ('checkEntry' in rules) {
    const { checkEntry } = rules;
    return (entry: unknown, index: number): Checked<T> => {
      const checked = checkEntry(entry);
      if (checked.ok) return checked;
      const where = label(index, entry);
      return {
        ok: false,
        problems: checked.details.map(
          ({ field, message }) => `${where}: field ${shown(field)} ${message}`,
        ),
      };
    };
  }
  const { recordSchema, nested = {} } = rules;
  const validate = compileSchema<T>(recordSchema);
  return (entry: unknown, index: number): Checked<T> => {
    if (validate(entry)) return { ok: true, value: entry };
    const errors = validate.errors ?? [];
    return {
      ok: false,
      problems: errors.map((error) => describeRecord(error, label(index, entry), entry, nested)),
    };
  };
}

/**
 * A kind of seed file: `load(file)` streams one, checking each record as it arrives, and
 * resolves to its records and its version; `parse(data, source)` checks records in memory;
 * `scan(file)` checks a file, holding none of it, and gives how many records it holds and
 * `records()`, which yields them one at a time: for a service that stores them as they come.
 */
export function seedFile<T>(rules: SeedRules<T>) {
  const { what, record = 'record', check, keep = (value: T) => value } = rules;
  const checkOne = entryCheck(rules, record);
  const invalid = (source: string, problems: Problems) =>
    new SeedError(`${source}: invalid ${what}: ${problems.lines().join('; ')}`);
  /** The values of the entries that pass, in order; the others' problems go to `problems`. */
  function* passing(entries: Iterable<unknown>, problems: Problems): Generator<T> {
    let index = 0;
    for (const entry of entries) {
      const checked = checkOne(entry, index);
      if (checked.ok) yield keep(checked.value);
      else for (const problem of checked.problems) problems.add(problem);
      index += 1;
    }
  }
  const checked = (source: string, entries: Iterable<unknown>): T[] => {
    const problems = new Problems();
    const records = [...passing(entries, problems)];
    if (problems.total === 0 && records.length === 0) problems.add(`the file holds no ${what}`);
    if (problems.total === 0) {
      for (const problem of check?.(records, recordLabel) ?? []) problems.add(problem);
    }
    if (problems.total > 0) throw invalid(source, problems);
    return records;
  };
  const parse = (data: unknown, source: string): T[] => {
    if (!Array.isArray(data)) throw notAnArray(source, what);
    return checked(source, data);
  };
  /** The file's entries, and its version once they have all been read. */
  const reading = (file: string) => {
    let version = '';
    const entries = (function* () {
      version = yield* seedEntries(file, what);
    })();
    return { entries, version: () => version };
  };
  const load = async (file: string): Promise<{ records: T[]; version: string }> => {
    refuseTooLarge(file, what);
    const read = reading(file);
    const records = checked(file, read.entries);
    return { records, version: read.version() };
  };
  /**
   * How many records the file holds (an empty array holds none), each checked, none kept, and
   * `records()`: the records of the file as scanned.
   */
  const scan = (file: string) => {
    if (readableOnce(file)) {
      throw unreadable(
        file,
        what,
        'it is read twice (checked, then loaded): give a file, not a pipe or a device',
      );
    }
    const problems = new Problems();
    const read = reading(file);
    let count = 0;
    for (const _ of passing(read.entries, problems)) count += 1;
    if (problems.total > 0) throw invalid(file, problems);
    return { count, records: () => records(file, read.version()) };
  };
  /**
   * The records of a file scanned at `version`, one at a time as it is read again: a file that
   * is no longer the one scanned (another entry, other bytes) throws once that is known, at the
   * end at the latest, so that a store taking them in one transaction keeps none.
   */
  function* records(file: string, version: string): Generator<T> {
    const changed = () => new SeedError(`${file}: changed while it was read`);
    const read = reading(file);
    let index = 0;
    for (const entry of read.entries) {
      const checked = checkOne(entry, index++);
      if (!checked.ok) throw changed();
      yield keep(checked.value);
    }
    if (read.version() !== version) throw changed();
  }
  return { load, parse, scan };
}

/** A pipe, a socket or a device: what gives its bytes once (a missing file is seedEntries' to name). */
function readableOnce(file: string): boolean {
  try {
    const stat = statSync(file);
    return stat.isFIFO() || stat.isSocket() || stat.isCharacterDevice();
  } catch {
    return false;
  }
}

/** The most a process may hold: its cgroup's limit, or its V8 heap's when that is lower. */
export const memoryLimit = () =>
  Math.min(process.constrainedMemory?.() || Infinity, getHeapStatistics().heap_size_limit);

const MB = (bytes: number) => `${Math.ceil(bytes / 2 ** 20).toLocaleString('en-US')} MB`;

/**
 * What loading a byte of a seed file costs in resident memory at its peak, as measured at
 * 1,000 times the seeds (bench/RESULTS.md, "The refusal rule").
 */
const MEMORY_PER_FILE_BYTE = 2;

/** A file whose records would not fit the process is refused before any of it is read. */
function refuseTooLarge(file: string, what: string): void {
  let size: number;
  try {
    ({ size } = statSync(file));
  } catch (error) {
    throw unreadable(file, what, (error as Error).message);
  }
  const limit = memoryLimit();
  const needed = process.memoryUsage.rss() + size * MEMORY_PER_FILE_BYTE;
  if (needed > limit) {
    throw new SeedError(
      `${file}: ${MB(size)} of ${what} would take about ${MB(needed)} once loaded, ` +
        `more than the ${MB(limit)} this process may use (its container's memory limit, or ` +
        `--max-old-space-size): give it more memory or a smaller file`,
    );
  }
}

/** How much of the file is read at once: the memory a seed costs does not grow with the file. */
const CHUNK_BYTES = 64 * 1024;

/** The text on one line: a log line, a terminal's last line, a container's exit message. */
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ');
const unreadable = (file: string, what: string, reason: string) =>
  new SeedError(oneLine(`${file}: cannot read the ${what}: ${reason}`));
const notAnArray = (file: string, what: string) =>
  new SeedError(`${file}: invalid ${what}: the file must hold a JSON array of ${what}`);

/**
 * The entries of the top-level array of a seed file, read a chunk at a time: the file is never
 * whole in memory. Returns the file's version: the first 16 characters of its SHA-1
 * (base64url). A file that cannot be read, is not JSON or not an array throws a SeedError of one
 * line naming the file.
 */
function* seedEntries(file: string, what: string): Generator<unknown, string> {
  const fail = (reason: string) => unreadable(file, what, reason);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw fail((error as Error).message);
  }
  try {
    const parser = new JSONParser({ paths: ['$.*'], keepStack: false });
    let parsed: unknown[] = [];
    parser.onValue = ({ value, parent }) => {
      if (!Array.isArray(parent)) throw notAnArray(file, what);
      parsed.push(value);
    };
    const hash = createHash('sha1');
    const buffer = Buffer.alloc(CHUNK_BYTES);
    let start = '';
    for (;;) {
      let read: number;
      try {
        read = readSync(fd, buffer, 0, buffer.length, null);
      } catch (error) {
        throw fail((error as Error).message);
      }
      if (read === 0) break;
      const chunk = buffer.subarray(0, read);
      hash.update(chunk);
      // What the document starts with: an array, or something else (refused once it parses).
      start ||= chunk
        .toString('latin1')
        .replace(/^[\s\uFEFF\u00bb\u00bf\u00ef]+/, '')
        .slice(0, 1);
      try {
        parser.write(chunk);
      } catch (error) {
        if (error instanceof SeedError) throw error;
        throw fail(`not valid JSON: ${(error as Error).message}`);
      }
      yield* parsed;
      parsed = [];
    }
    if (start === '') throw fail('not valid JSON: the file holds no value');
    try {
      // A number at the top ends only here; anything else unfinished is an error.
      if (!parser.isEnded) parser.end();
    } catch (error) {
      throw fail(`not valid JSON: ${(error as Error).message}`);
    }
    if (start !== '[') throw notAnArray(file, what);
    return hash.digest('base64url').slice(0, 16);
  } finally {
    closeSync(fd);
  }
}

/** `record 3 ("Lisbon"), activity 2 ("Fado Night"): field "minPrice" must be >= 0`. */
function describeRecord(
  error: ErrorObject,
  where: string,
  record: unknown,
  nested: Readonly<Record<string, string>>,
): string {
  const [, field, innerIndex, innerField] = error.instancePath.split('/');
  const kind = field !== undefined && Object.hasOwn(nested, field) ? nested[field] : undefined;
  if (kind === undefined || innerIndex === undefined)
    return `${where}: ${fieldProblem(error, field)}`;
  const inner = (record as Record<string, unknown[] | undefined>)[field as string]?.[
    Number(innerIndex)
  ];
  return `${where}, ${recordLabel(kind, innerIndex, inner)}: ${fieldProblem(error, innerField)}`;
}

/** `field "rating" must be <= 10`, or ajv's message when no field is named. */
function fieldProblem(error: ErrorObject, field: string | undefined): string | undefined {
  const name = field ?? error.params.missingProperty ?? error.params.additionalProperty;
  if (name === undefined) return error.message;
  const message = error.keyword === 'additionalProperties' ? 'is not allowed' : error.message;
  return `field ${shown(name)} ${message}`;
}

/** How much of a record's name or title its label shows: never the whole of a huge one. */
const LABEL_CHARACTERS = 40;

/** A text of the file, quoted: its first 40 characters, so that a huge one keeps the message short. */
function shown(text: string): string {
  // Two UTF-16 units at most per character: the first 82 units hold the first 41 characters.
  const characters = Array.from(text.slice(0, 2 * LABEL_CHARACTERS + 2));
  return JSON.stringify(
    characters.length > LABEL_CHARACTERS
      ? `${characters.slice(0, LABEL_CHARACTERS).join('')}…`
      : text,
  );
}

/** `record 3 ("Lisbon")`: a record by its index and, when it has one as text, its name or title. */
export function recordLabel(kind: string, index: string | number, record: unknown): string {
  const { name, title } = Object(record) as { name?: unknown; title?: unknown };
  const named = name ?? title;
  return typeof named === 'string' ? `${kind} ${index} (${shown(named)})` : `${kind} ${index}`;
}
