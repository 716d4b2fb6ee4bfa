import { readFileSync } from 'node:fs';
import type { AnySchema, ErrorObject } from 'ajv';
import { compileSchema, Problems } from './validation.js';

export class SeedError extends Error {
  override name = 'SeedError';
}

/** See README.md: `nested` is `{ activities: 'activity' }`, `check` says what a schema cannot. */
interface SeedRules<T> {
  what: string;
  recordSchema: AnySchema;
  nested?: Readonly<Record<string, string>>;
  check?: (records: T[]) => string[];
}

/** A kind of seed file: `load(file)` reads and checks one, `parse(data, source)` checks records. */
export function seedFile<T>({ what, recordSchema, nested = {}, check }: SeedRules<T>) {
  const validate = compileSchema<T[]>({ type: 'array', minItems: 1, items: recordSchema });
  const parse = (data: unknown, source: string): T[] => {
    const problems = new Problems();
    const found = validate(data)
      ? (check?.(data) ?? [])
      : (validate.errors ?? []).map((error) => describeRecord(error, data as unknown[], nested));
    for (const problem of found) problems.add(problem);
    if (problems.total > 0) {
      throw new SeedError(`${source}: invalid ${what}:\n  ${problems.lines().join('\n  ')}`);
    }
    return data as T[];
  };
  const load = (file: string): T[] => {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new SeedError(`${file}: cannot read the ${what}: ${(error as Error).message}`);
    }
    return parse(data, file);
  };
  return { load, parse };
}

/** `record 3 ("Lisbon"), activity 2 ("Fado Night"): field "minPrice" must be >= 0`. */
function describeRecord(
  error: ErrorObject,
  records: unknown[],
  nested: Readonly<Record<string, string>>,
): string {
  const [, index, field, innerIndex, innerField] = error.instancePath.split('/');
  if (index === undefined) return `the file ${error.message}`;
  const record = records[Number(index)] as Record<string, unknown[] | undefined>;
  const where = recordLabel('record', index, record);
  const kind = field !== undefined && Object.hasOwn(nested, field) ? nested[field] : undefined;
  if (kind === undefined || innerIndex === undefined)
    return `${where}: ${fieldProblem(error, field)}`;
  const inner = record[field as string]?.[Number(innerIndex)];
  return `${where}, ${recordLabel(kind, innerIndex, inner)}: ${fieldProblem(error, innerField)}`;
}

/** `field "rating" must be <= 10`, or ajv's message when no field is named. */
function fieldProblem(error: ErrorObject, field: string | undefined): string | undefined {
  const name = field ?? error.params.missingProperty ?? error.params.additionalProperty;
  if (name === undefined) return error.message;
  const message = error.keyword === 'additionalProperties' ? 'is not allowed' : error.message;
  return `field "${name}" ${message}`;
}

/** How much of a record's name or title its label shows: never the whole of a huge one. */
const LABEL_CHARACTERS = 40;

/** `record 3 ("Lisbon")`: a record by its index and, when it has one as text, its name or title. */
export function recordLabel(kind: string, index: string | number, record: unknown): string {
  const { name, title } = Object(record) as { name?: unknown; title?: unknown };
  const named = name ?? title;
  if (typeof named !== 'string') return `${kind} ${index}`;
  // Two UTF-16 units at most per character: the first 82 units hold the first 41 characters.
  const characters = Array.from(named.slice(0, 2 * LABEL_CHARACTERS + 2));
  const shown =
    characters.length > LABEL_CHARACTERS
      ? `${characters.slice(0, LABEL_CHARACTERS).join('')}…`
      : named;
  return `${kind} ${index} (${JSON.stringify(shown)})`;
}
