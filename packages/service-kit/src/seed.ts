import { readFileSync } from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv';

/** A seed file that cannot be used; the message names the file, the record and the field. */
export class SeedError extends Error {
  override name = 'SeedError';
}

export interface SeedRules<T> {
  /** What the file holds, in words: `games`, `destinations`. */
  what: string;
  /** The schema's compiled validator (ajv with allErrors). */
  validate: ValidateFunction<T>;
  /** One ajv error in words, naming the record and the field. */
  describe: (error: ErrorObject, data: unknown) => string;
  /** What the schema cannot say (duplicates, ranges in order), in words. */
  check?: (data: T) => string[];
}

/** Parses JSON data against the rules; every problem is listed in one SeedError. */
export function parseSeed<T>(data: unknown, source: string, rules: SeedRules<T>): T {
  const problems = rules.validate(data)
    ? (rules.check?.(data) ?? [])
    : (rules.validate.errors ?? []).map((error) => rules.describe(error, data));
  if (problems.length > 0) {
    throw new SeedError(`${source}: invalid ${rules.what}:\n  ${problems.join('\n  ')}`);
  }
  return data as T;
}

/** Reads a seed file and parses it; a file that cannot be read or is not JSON is named too. */
export function loadSeedFile<T>(file: string, rules: SeedRules<T>): T {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new SeedError(`${file}: cannot read the ${rules.what}: ${(error as Error).message}`);
  }
  return parseSeed(data, file, rules);
}

/** `record 3 ("Lisbon")`: a record by its index and, when it has one, its name or title. */
export function recordLabel(kind: string, index: string | number, record: unknown): string {
  const named =
    record && typeof record === 'object'
      ? ((record as { name?: unknown; title?: unknown }).name ??
        (record as { title?: unknown }).title)
      : undefined;
  return named === undefined ? `${kind} ${index}` : `${kind} ${index} (${JSON.stringify(named)})`;
}

/** An ajv error at `field` in words: `field "rating" must be <= 10`. */
export function fieldProblem(error: ErrorObject, field: string | undefined): string | undefined {
  const name = field ?? error.params.missingProperty ?? error.params.additionalProperty;
  if (name === undefined) return undefined;
  const message = error.keyword === 'additionalProperties' ? 'is not allowed' : error.message;
  return `field "${name}" ${message}`;
}
