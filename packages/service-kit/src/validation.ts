import { Ajv, type AnySchema, type ErrorObject, type ValidateFunction } from 'ajv';
import { BadRequest, type ErrorDetail } from './errors.js';
import type { JsonSchema, Parameter } from './operations.js';

// The one ajv instance, for input and seed files: `strict` refuses an unknown keyword rather than
// ignore it; `multipleOf` to 9 decimals, so that 19.99 is a multiple of 0.01 in floating point.
const ajv = new Ajv({
  allErrors: true,
  strict: true,
  allowUnionTypes: true,
  multipleOfPrecision: 9,
});

export const compileSchema = <T>(schema: AnySchema): ValidateFunction<T> => ajv.compile<T>(schema);

/** How many problems a seed file's error lists: a file broken throughout says so in a screenful. */
export const LISTED_PROBLEMS = 20;
/** How many a 400 lists: its size stays a small multiple of the request's, whatever that holds. */
const LISTED_IN_ANSWER = 5;

/** The first `limit` problems, and how many more there were. */
export class Problems<T = string> {
  readonly listed: T[] = [];
  total = 0;
  constructor(readonly limit = LISTED_PROBLEMS) {}
  add(problem: T): void {
    if (this.total++ < this.limit) this.listed.push(problem);
  }
  /** `and 1,980 more`, when there are. */
  rest(): string[] {
    const more = this.total - this.listed.length;
    return more > 0 ? [`and ${more.toLocaleString('en-US')} more`] : [];
  }
  lines = (): (T | string)[] => [...this.listed, ...this.rest()];
}

interface ValidatorOptions {
  /** The 400's message is `Invalid <label>: <field> <message>; ...` (default: query or body). */
  label?: string;
  /** The 400's message from its details, instead. */
  summary?: (details: ErrorDetail[]) => string;
  /** A field's message, or its message by JSON Schema keyword; by default the schema in words. */
  messages?: Readonly<Record<string, string | Readonly<Record<string, string>>>>;
  /** A body's unknown field's message, when not the kit's (a field the service sets, say). */
  unknownMessage?: (name: string) => string | undefined;
  /** 'ignore' leaves unknown query parameters out (a page's); by default they are a 400. */
  unknown?: 'reject' | 'ignore';
  /** Query parameters that a form sends empty when nothing is chosen: empty, they are absent. */
  emptyIsAbsent?: readonly string[];
  /** Rules across parameters (`from` not after `to`), given the values their schemas passed. */
  rules?: (values: Readonly<Record<string, unknown>>) => ErrorDetail[];
  /**
   * What a refusal throws, given its message and details: by default a BadRequest (400); a
   * domain's own error when the domain checks its data with the validator.
   */
  error?: (message: string, details: ErrorDetail[]) => Error;
}

/**
 * `ctx.query` or `ctx.params` as the typed values of `parameters`, or a 400 naming each problem in
 * the order of the request. A path integer has one spelling, since a path names one resource.
 */
export function parameterValidator<T = Record<string, unknown>>(
  parameters: readonly Parameter[],
  options: Omit<ValidatorOptions, 'unknownMessage'> = {},
): (raw: Readonly<Record<string, string | string[] | undefined>>) => T {
  const readers = new Map(parameters.map((p) => [p.name, reader(p)]));
  const properties = Object.fromEntries(parameters.map((p) => [p.name, p.schema]));
  const validate = ajv.compile({
    type: 'object',
    properties,
    required: parameters.filter((p) => p.required).map((p) => p.name),
  });
  const ignoreUnknown = options.unknown === 'ignore';
  const emptyIsAbsent = new Set(options.emptyIsAbsent);
  const fail = failure(options, properties, 'query', 'parameter');

  return (raw) => {
    const values: Record<string, unknown> = {};
    const found = new Map<string, string>();
    const names = Object.keys(raw);
    for (const name of names) {
      const value = raw[name];
      const read = readers.get(name);
      if (read === undefined) {
        if (!ignoreUnknown) found.set(name, fail.unknown(name));
      } else if (typeof value === 'string') {
        const given = read(value);
        if (given !== '' || !emptyIsAbsent.has(name)) values[name] = given;
      } else if (value !== undefined) {
        found.set(name, 'must be given once');
      }
    }
    if (validate(values) && found.size === 0) {
      const broken = options.rules?.(values);
      if (broken === undefined || broken.length === 0) return values as T;
      throw fail.error(broken);
    }
    fail.addErrors(found, validate.errors ?? []);
    // In the order of the request (a missing required parameter last), then the rules' own,
    // which judge only the values that passed their own schema.
    const fields = new Set([...names.filter((name) => found.has(name)), ...found.keys()]);
    const details = [...fields].map((field) => ({ field, message: found.get(field) ?? '' }));
    const passed = Object.entries(values).filter(([name]) => !found.has(name));
    for (const broken of options.rules?.(Object.fromEntries(passed)) ?? []) {
      if (!found.has(broken.field)) details.push(broken);
    }
    throw fail.error(details);
  };
}

/** A JSON object body checked against `schema`, with its top-level strings trimmed, or a 400. */
export function bodyValidator<T>(
  schema: JsonSchema,
  options: ValidatorOptions = {},
): (body: unknown) => T {
  const validate = ajv.compile(schema);
  const fail = failure(
    options,
    (schema.properties ?? {}) as Record<string, JsonSchema>,
    'body',
    'field',
  );
  return (body) => {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw fail.error([{ field: 'body', message: 'must be a JSON object' }]);
    }
    // A copy with every string trimmed (ajv cannot trim); fromEntries keeps `__proto__` a plain key.
    const trim = (item: unknown) => (typeof item === 'string' ? item.trim() : item);
    const value = Object.fromEntries(Object.entries(body).map(([key, item]) => [key, trim(item)]));
    if (validate(value)) return value as T;
    const problems = fail.addErrors(new Map(), validate.errors ?? []);
    throw fail.error([...problems].map(([field, message]) => ({ field, message })));
  };
}

const badRequest = (message: string, details: ErrorDetail[]) => new BadRequest(message, details);

function failure(
  { label, summary, messages = {}, unknownMessage, error = badRequest }: ValidatorOptions,
  schemas: Readonly<Record<string, JsonSchema>>,
  defaultLabel: string,
  kind: 'parameter' | 'field',
) {
  const allowed = Object.keys(schemas).join(', ');
  const messageFor = (field: string, keyword: string): string => {
    const given = Object.hasOwn(messages, field) ? messages[field] : undefined;
    if (typeof given === 'string') return given;
    if (given && Object.hasOwn(given, keyword)) return given[keyword] as string;
    const schema = Object.hasOwn(schemas, field) ? schemas[field] : undefined;
    return schema ? wording(schema, keyword) : 'is not valid';
  };
  // One wording for every service: an unknown name, and the names there are.
  const unknown = (name: string) =>
    unknownMessage?.(name) ?? `is not a ${kind} here; the ${kind}s are ${allowed}`;
  return {
    unknown,
    // One message per field: the first ajv found for it.
    addErrors(found: Map<string, string>, errors: ErrorObject[]) {
      for (const error of errors) {
        const params = error.params as Record<string, string>;
        if (error.keyword === 'required') {
          found.set(params.missingProperty ?? '', 'is required');
        } else if (error.keyword === 'additionalProperties') {
          const name = params.additionalProperty ?? '';
          found.set(name, unknown(name));
        } else if (error.keyword === 'minProperties' && error.instancePath === '') {
          found.set('body', `must have at least one of ${allowed}`);
        } else {
          const field = error.instancePath.slice(1).split('/')[0] ?? '';
          if (!found.has(field)) found.set(field, messageFor(field, error.keyword));
        }
      }
      return found;
    },
    /** A refusal (a 400 by default) naming the first few problems and counting the rest. */
    error(details: ErrorDetail[]): Error {
      const problems = new Problems<ErrorDetail>(LISTED_IN_ANSWER);
      for (const detail of details) problems.add(detail);
      const { listed } = problems;
      const lines = [...listed.map((d) => `${d.field} ${d.message}`), ...problems.rest()];
      const message = summary
        ? summary(listed)
        : `Invalid ${label ?? defaultLabel}: ${lines.join('; ')}`;
      return error(message, listed);
    },
  };
}

function wording(schema: JsonSchema, keyword: string): string {
  const { type, minimum, maximum, minLength, maxLength } = schema;
  const choices = schema.enum as unknown[] | undefined;
  if (choices)
    return choices.length === 1 ? `must be ${choices[0]}` : `must be one of ${choices.join(', ')}`;
  const kind = typeof type === 'string' && `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
  if (type === 'integer' || type === 'number') {
    if (minimum !== undefined && maximum !== undefined)
      return `must be ${kind} from ${minimum} to ${maximum}`;
    if (minimum !== undefined) return `must be ${kind} of at least ${minimum}`;
    if (maximum !== undefined) return `must be ${kind} of at most ${maximum}`;
    return `must be ${kind}`;
  }
  if (keyword === 'maxLength') return `must be at most ${maxLength} characters`;
  if (keyword === 'minLength') {
    return minLength === 1 ? 'must not be empty' : `must be at least ${minLength} characters`;
  }
  return keyword === 'type' && kind ? `must be ${kind}` : 'is not valid';
}

/** RFC 8259's number (leading zeros tolerated): never " 12", "0x10" nor "Infinity". */
const JSON_NUMBER = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
const CANONICAL_INTEGER = /^(0|-?[1-9][0-9]*)$/;

/**
 * A number when the schema wants one and the text is one, else the text, for the schema to
 * refuse; an integer beyond 2^53 too, which no number holds exactly: its `maximum` words the 400.
 */
function reader(p: Parameter): (text: string) => unknown {
  const integer = p.schema.type === 'integer';
  if (!integer && p.schema.type !== 'number') {
    return p.in === 'query' ? (text) => text.trim() : (text) => text;
  }
  const spelling = integer && p.in === 'path' ? CANONICAL_INTEGER : JSON_NUMBER;
  return (text) => {
    if (!spelling.test(text)) return text;
    const value = Number(text);
    if (!Number.isFinite(value)) return text;
    return integer && Number.isInteger(value) && !Number.isSafeInteger(value) ? text : value;
  };
}
