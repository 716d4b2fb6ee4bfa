import { bodyValidator } from 'service-kit';
import { type FieldProblem, InvalidCd } from './errors.js';
import {
  type Cd,
  type CdInput,
  type CdPatch,
  FIELD_NAMES,
  FIELDS,
  ID_PATTERN,
  maxYear,
  SERVICE_FIELDS,
  TEXT_PATTERN,
  TEXT_RULE,
} from './schema.js';

/** Either the valid, trimmed value or what is wrong with it, field by field. */
export type Checked<T> = { ok: true; value: T } | { ok: false; details: FieldProblem[] };

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
    update: {
      type: 'object',
      description: `Any non-empty subset of the fields. A CD as read may be sent back whole: its ${SERVICE_FIELDS.join(', ')} are ignored when they equal the stored values, and a 400 naming the field otherwise`,
      properties,
      minProperties: 1,
      additionalProperties: false,
    },
  };
}

/** What a wrong text field is told: the rule it breaks, in words. */
const textMessages = Object.fromEntries(
  FIELD_NAMES.flatMap((name) => {
    const spec = FIELDS[name];
    if (spec.kind !== 'text') return [];
    const shape = `must be a non-empty string of at most ${spec.maxLength} characters`;
    return [[name, { type: shape, minLength: shape, maxLength: shape, pattern: TEXT_RULE }]];
  }),
);

const isServiceField = (name: string) => (SERVICE_FIELDS as readonly string[]).includes(name);

const bodyOptions = (label: string, serviceField: string) => ({
  label,
  messages: textMessages,
  unknownMessage: (name: string) => (isServiceField(name) ? serviceField : undefined),
  error: (message: string, details: FieldProblem[]) => new InvalidCd(message, details),
});

interface Compiled {
  schemas: ReturnType<typeof buildSchemas>;
  create: (body: unknown) => CdInput;
  update: (body: unknown) => CdPatch;
}
const compiled = new Map<number, Compiled>();

/** Compiled once per latest year, so that the bound moves on with the calendar. */
function compiledFor(latestYear: number): Compiled {
  let entry = compiled.get(latestYear);
  if (!entry) {
    const schemas = buildSchemas(latestYear);
    entry = {
      schemas,
      create: bodyValidator(
        schemas.create,
        bodyOptions('CD', 'is set by the service and cannot be given'),
      ),
      update: bodyValidator(
        schemas.update,
        bodyOptions(
          'update',
          'is set by the service and cannot be changed: send it as read, or leave it out',
        ),
      ),
    };
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

/** A new CD's fields, trimmed; an InvalidCd naming each field that is wrong otherwise. */
export function validCreate(body: unknown, now: Date = new Date()): CdInput {
  return compiledFor(maxYear(now)).create(body);
}

/**
 * The fields of an update, trimmed: at least one, nothing else; an InvalidCd otherwise. The fields
 * the service sets may come along, as a CD read whole and sent back does, when they equal those
 * of `stored`: they are left out; any other value of theirs is an InvalidCd naming the field.
 */
export function validUpdate(body: unknown, now: Date = new Date(), stored?: Cd): CdPatch {
  return compiledFor(maxYear(now)).update(stored ? withoutStoredValues(body, stored) : body);
}

/** The body without the service's fields that hold the stored values, however written. */
function withoutStoredValues(body: unknown, stored: Cd): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  // fromEntries keeps `__proto__` a plain key, for the validator to refuse.
  return Object.fromEntries(
    Object.entries(body).filter(
      ([name, value]) => !(isServiceField(name) && sameAsStored(name, value, stored)),
    ),
  );
}

/** An id in any case (a UUID's letters are case-blind, as the path's are), a time at the same instant. */
function sameAsStored(name: string, value: unknown, stored: Cd): boolean {
  const held = stored[name as keyof Cd];
  if (typeof value !== 'string' || typeof held !== 'string') return value === held;
  if (name === 'id') return value.toLowerCase() === held.toLowerCase();
  return Date.parse(value) === Date.parse(held);
}

/** A new CD's fields checked, for code that reports problems itself (the seed file). */
export function checkCreate(body: unknown, now: Date = new Date()): Checked<CdInput> {
  return checked(() => validCreate(body, now));
}

/** The value, or the details of the InvalidCd that `validate` throws. */
export function checked<T>(validate: () => T): Checked<T> {
  try {
    return { ok: true, value: validate() };
  } catch (error) {
    if (!(error instanceof InvalidCd)) throw error;
    return { ok: false, details: error.details };
  }
}
