import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import {
  type CdInput,
  type CdPatch,
  FIELD_NAMES,
  FIELDS,
  type FieldName,
  maxYear,
  SERVICE_FIELDS,
} from './schema.js';

export interface FieldError {
  field: string;
  message: string;
}

/** Either the valid, normalized value or what is wrong with it, field by field. */
export type Checked<T> = { ok: true; value: T } | { ok: false; details: FieldError[] };

/** The one ajv instance, shared with the list query schema (query.ts). */
export const ajv = new Ajv({ allErrors: true, strict: true });

/** The JSON Schema of each field, derived from FIELDS, with the year bound of `year`. */
function fieldSchemas(latestYear: number) {
  return Object.fromEntries(
    FIELD_NAMES.map((name) => {
      const spec = FIELDS[name];
      const schema =
        spec.kind === 'text'
          ? { type: 'string', minLength: 1, maxLength: spec.maxLength }
          : { type: 'integer', minimum: spec.minimum, maximum: latestYear };
      return [name, schema];
    }),
  );
}

/** The ajv schemas of a create (all fields, nothing else) and an update (a non-empty subset). */
export function cdSchemas(latestYear: number) {
  const properties = fieldSchemas(latestYear);
  return {
    create: { type: 'object', properties, required: FIELD_NAMES, additionalProperties: false },
    update: { type: 'object', properties, minProperties: 1, additionalProperties: false },
  };
}

interface Validators {
  create: ValidateFunction;
  update: ValidateFunction;
}
const compiled = new Map<number, Validators>();

/** Compiled once per latest year, so that the bound moves on with the calendar. */
function validatorsFor(latestYear: number): Validators {
  let validators = compiled.get(latestYear);
  if (!validators) {
    const schemas = cdSchemas(latestYear);
    validators = { create: ajv.compile(schemas.create), update: ajv.compile(schemas.update) };
    compiled.set(latestYear, validators);
  }
  return validators;
}

/** A new CD's fields, trimmed and checked. */
export function checkCreate(body: unknown, now: Date = new Date()): Checked<CdInput> {
  return check<CdInput>(body, validatorsFor(maxYear(now)).create, maxYear(now));
}

/** The fields of an update, trimmed and checked: at least one, nothing else. */
export function checkUpdate(body: unknown, now: Date = new Date()): Checked<CdPatch> {
  return check<CdPatch>(body, validatorsFor(maxYear(now)).update, maxYear(now));
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
  return (name: string): string => {
    if (!Object.hasOwn(FIELDS, name)) return 'is not valid';
    const spec = FIELDS[name as FieldName];
    return spec.kind === 'text'
      ? `must be a non-empty string of at most ${spec.maxLength} characters`
      : `must be an integer from ${spec.minimum} to ${latestYear}`;
  };
}

/** One detail per field, in words a client can act on. */
export function toDetails(
  errors: ErrorObject[],
  messageFor: (field: string) => string,
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
      if (!details.has(field)) details.set(field, messageFor(field));
    }
  }
  return [...details].map(([field, message]) => ({ field, message }));
}
