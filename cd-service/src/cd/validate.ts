import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import {
  type CdInput,
  type CdPatch,
  FIELD_NAMES,
  FIELDS,
  type FieldName,
  ID_PATTERN,
  maxYear,
  SERVICE_FIELDS,
  TEXT_PATTERN,
  TEXT_RULE,
} from './schema.js';

export interface FieldError {
  field: string;
  message: string;
}

/** Either the valid, normalized value or what is wrong with it, field by field. */
export type Checked<T> = { ok: true; value: T } | { ok: false; details: FieldError[] };

/** The one ajv instance, shared with the list query schema (query.ts). */
export const ajv = new Ajv({ allErrors: true, strict: true });

/**
 * The JSON Schema of each field, derived from FIELDS; a year is bounded by `latestYear`
 * when given (input), only from below otherwise (a stored record).
 */
function fieldSchemas(latestYear?: number) {
  return Object.fromEntries(
    FIELD_NAMES.map((name) => {
      const spec = FIELDS[name];
      const schema =
        spec.kind === 'text'
          ? { type: 'string', minLength: 1, maxLength: spec.maxLength, pattern: TEXT_PATTERN }
          : {
              type: 'integer',
              minimum: spec.minimum,
              ...(latestYear !== undefined && { maximum: latestYear }),
            };
      return [name, schema];
    }),
  );
}

function buildSchemas(latestYear: number) {
  const properties = fieldSchemas(latestYear);
  return {
    create: { type: 'object', properties, required: FIELD_NAMES, additionalProperties: false },
    update: { type: 'object', properties, minProperties: 1, additionalProperties: false },
  };
}

interface Compiled {
  schemas: ReturnType<typeof buildSchemas>;
  create: ValidateFunction;
  update: ValidateFunction;
}
const compiled = new Map<number, Compiled>();

/** Compiled once per latest year, so that the bound moves on with the calendar. */
function compiledFor(latestYear: number): Compiled {
  let entry = compiled.get(latestYear);
  if (!entry) {
    const schemas = buildSchemas(latestYear);
    entry = { schemas, create: ajv.compile(schemas.create), update: ajv.compile(schemas.update) };
    compiled.set(latestYear, entry);
  }
  return entry;
}

/**
 * The ajv schemas of a create (all fields, nothing else) and an update (a non-empty subset):
 * the very objects the validators of `latestYear` are compiled from, also used by the
 * OpenAPI document.
 */
export function cdSchemas(latestYear: number): Compiled['schemas'] {
  return compiledFor(latestYear).schemas;
}

/** The text an ISO 8601 UTC timestamp of the service has, e.g. 2024-05-01T12:00:00.000Z. */
const TIMESTAMP_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$';

const recordFields = fieldSchemas();

/**
 * A CD as the API answers it (toCd), derived from FIELDS like the input schemas. Its year has
 * no upper bound: the bound applies when a CD is written, and moves on with the calendar.
 */
export const cdRecordSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', ...FIELD_NAMES, 'createdAt', 'updatedAt'],
  properties: {
    id: { type: 'string', pattern: ID_PATTERN, description: 'Set by the service' },
    ...recordFields,
    createdAt: { type: 'string', pattern: TIMESTAMP_PATTERN, description: 'Set by the service' },
    updatedAt: { type: 'string', pattern: TIMESTAMP_PATTERN, description: 'Set by the service' },
  },
};

/** A list item with `fields=title` (toTitleOnly). */
export const titleOnlySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['title'],
  properties: { title: recordFields.title },
};

/** A new CD's fields, trimmed and checked. */
export function checkCreate(body: unknown, now: Date = new Date()): Checked<CdInput> {
  return check<CdInput>(body, compiledFor(maxYear(now)).create, maxYear(now));
}

/** The fields of an update, trimmed and checked: at least one, nothing else. */
export function checkUpdate(body: unknown, now: Date = new Date()): Checked<CdPatch> {
  return check<CdPatch>(body, compiledFor(maxYear(now)).update, maxYear(now));
}

function check<T>(body: unknown, validate: ValidateFunction, latestYear: number): Checked<T> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, details: [{ field: 'body', message: 'must be a JSON object' }] };
  }
  const value = trimStrings(body as Record<string, unknown>);
  if (validate(value)) return { ok: true, value: value as T };
  const details = toDetails(validate.errors ?? [], fieldMessage(latestYear), {
    allowed: fieldList,
    serviceFields: SERVICE_FIELDS,
  });
  return { ok: false, details };
}

/**
 * A copy with every string trimmed (ajv cannot trim). Object.fromEntries defines own
 * properties, so a `__proto__` key stays a plain (and then rejected) key.
 */
export function trimStrings(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      typeof item === 'string' ? item.trim() : item,
    ]),
  );
}

const fieldList = FIELD_NAMES.join(', ');

function fieldMessage(latestYear: number) {
  return (name: string, keyword: string): string => {
    if (!Object.hasOwn(FIELDS, name)) return 'is not valid';
    const spec = FIELDS[name as FieldName];
    if (spec.kind === 'year') return `must be an integer from ${spec.minimum} to ${latestYear}`;
    return keyword === 'pattern'
      ? TEXT_RULE
      : `must be a non-empty string of at most ${spec.maxLength} characters`;
  };
}

/** One detail per field, in words a client can act on. */
export function toDetails(
  errors: ErrorObject[],
  messageFor: (field: string, keyword: string) => string,
  { allowed, serviceFields = [] }: { allowed: string; serviceFields?: readonly string[] },
): FieldError[] {
  const details = new Map<string, string>();
  for (const error of errors) {
    const params = error.params as Record<string, string>;
    if (error.keyword === 'required') {
      details.set(params.missingProperty ?? '', 'is required');
    } else if (error.keyword === 'additionalProperties') {
      const key = params.additionalProperty ?? '';
      const serviceField = serviceFields.includes(key);
      details.set(
        key,
        serviceField
          ? 'is set by the service and cannot be given'
          : `is not allowed (allowed: ${allowed})`,
      );
    } else if (error.keyword === 'minProperties') {
      details.set('body', `must have at least one of ${allowed}`);
    } else {
      const field = error.instancePath.slice(1).split('/')[0] ?? '';
      if (!details.has(field)) details.set(field, messageFor(field, error.keyword));
    }
  }
  return [...details].map(([field, message]) => ({ field, message }));
}
