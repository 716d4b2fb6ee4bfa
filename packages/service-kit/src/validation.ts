import { Ajv, type AnySchema, type ErrorObject, type ValidateFunction } from 'ajv';
import { BadRequest, type ErrorDetail } from './errors.js';
import type { JsonSchema, Parameter } from './operations.js';

/**
 * The one ajv instance of a service, for its input and its seed files: every problem at once;
 * a schema with a keyword ajv does not know is refused when it is compiled, not ignored; a
 * union of types is allowed (a nullable number); `multipleOf` is judged to 9 decimals, so that
 * a price of 19.99 is a multiple of 0.01 in binary floating point.
 */
const ajv = new Ajv({
  allErrors: true,
  strict: true,
  allowUnionTypes: true,
  multipleOfPrecision: 9,
});

/** A schema compiled by the one ajv instance (a seed file's shape). */
export const compileSchema = <T>(schema: AnySchema): ValidateFunction<T> => ajv.compile<T>(schema);

/** How the input is checked and what its 400 says (each schema is compiled once, here). */
export interface ValidatorOptions {
  /** Names the input in the 400's message, `Invalid <label>: <field> <message>; ...`. */
  label?: string;
  /** The 400's message from its details, instead (a path parameter's own sentence). */
  summary?: (details: ErrorDetail[]) => string;
  /**
   * A wrong field's message: one whatever rule it breaks, or one per JSON Schema keyword; by
   * default the rule in words, from the schema ("must be an integer from 1 to 1000").
   */
  messages?: Readonly<Record<string, string | Readonly<Record<string, string>>>>;
  /** What an unknown name is told, given the allowed ones; undefined for the default. */
  unknownMessage?: (name: string, allowed: string) => string | undefined;
  /** Query parameters only: 'ignore' leaves unknown names out (a page); 'reject' (default) is a 400. */
  unknown?: 'reject' | 'ignore';
  /** Query parameters that a form sends empty when nothing is chosen: empty, they are absent. */
  emptyIsAbsent?: readonly string[];
  /** Rules across parameters (`from` not after `to`), judged on the values that passed their own schema. */
  rules?: (values: Readonly<Record<string, unknown>>) => ErrorDetail[];
}

/** Query or path values as Koa gives them: text, and an array for a repeated query key. */
type RawValues = Readonly<Record<string, string | string[] | undefined>>;

/**
 * A function that turns `ctx.query` or `ctx.params` into the typed values of `parameters`
 * (the very Parameter objects the OpenAPI document shows, their schemas compiled here), or
 * throws a 400 naming each problem, in the order of the request. Query text is trimmed;
 * a query number is read from any JSON number spelling (`10`, `2.5E0`, `1e-7`: what
 * JavaScript's and Python's `str` write), never from other text (" 12", "0x10", "Infinity");
 * a path integer only in its one spelling (no leading zero), since a path names one resource;
 * a repeated key "must be given once".
 */
export function parameterValidator<T = Record<string, unknown>>(
  parameters: readonly Parameter[],
  options: ValidatorOptions = {},
): (raw: RawValues) => T {
  const readers = new Map(parameters.map((p) => [p.name, { trim: isText(p), read: reader(p) }]));
  const validate = ajv.compile({
    type: 'object',
    properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])),
    required: parameters.filter((p) => p.required).map((p) => p.name),
  });
  const schemas = new Map(parameters.map((p) => [p.name, p.schema]));
  const ignoreUnknown = options.unknown === 'ignore';
  const emptyIsAbsent = new Set(options.emptyIsAbsent);
  const allowed = parameters.map((p) => p.name).join(', ');
  const fail = failure(options, schemas, allowed, 'query');

  return (raw) => {
    const values: Record<string, unknown> = {};
    let problems: Map<string, string> | undefined;
    const names = Object.keys(raw);
    for (const name of names) {
      const value = raw[name];
      const param = readers.get(name);
      let problem: string | undefined;
      if (param === undefined) {
        if (!ignoreUnknown) problem = fail.unknown(name);
      } else if (typeof value === 'string') {
        const text = param.trim ? value.trim() : value;
        if (text !== '' || !emptyIsAbsent.has(name)) values[name] = param.read(text);
      } else if (value !== undefined) {
        problem = 'must be given once';
      }
      if (problem !== undefined) {
        problems ??= new Map();
        problems.set(name, problem);
      }
    }
    if (validate(values) && problems === undefined) {
      const broken = options.rules?.(values);
      if (broken === undefined || broken.length === 0) return values as T;
      throw fail.error(broken);
    }
    const found = fail.addErrors(problems, validate.errors ?? []);
    // In the order of the request (a missing required parameter last), then the rules' own,
    // which judge only the values that passed their own schema.
    const fields = names.filter((name) => found.has(name));
    for (const name of found.keys()) if (!fields.includes(name)) fields.push(name);
    const details = fields.map((field) => ({ field, message: found.get(field) ?? '' }));
    for (const broken of options.rules?.(withoutFields(values, found)) ?? []) {
      if (!found.has(broken.field)) details.push(broken);
    }
    throw fail.error(details);
  };
}

/**
 * A function that checks a JSON request body against `schema` (the one the OpenAPI document
 * shows) and gives it back with every top-level string trimmed, or throws a 400 naming each
 * field that is wrong (`body` when it is not a JSON object).
 */
export function bodyValidator<T>(
  schema: JsonSchema,
  options: ValidatorOptions = {},
): (body: unknown) => T {
  const validate = ajv.compile(schema);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const fail = failure(
    options,
    new Map(Object.entries(properties)),
    Object.keys(properties).join(', '),
    'body',
  );
  return (body) => {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw fail.error([{ field: 'body', message: 'must be a JSON object' }]);
    }
    // A copy with every string trimmed (ajv cannot trim); fromEntries keeps `__proto__` a plain key.
    const value = Object.fromEntries(
      Object.entries(body).map(([key, item]) => [
        key,
        typeof item === 'string' ? item.trim() : item,
      ]),
    );
    if (validate(value)) return value as T;
    const problems = fail.addErrors(undefined, validate.errors ?? []);
    throw fail.error([...problems].map(([field, message]) => ({ field, message })));
  };
}

/** How a validator words its problems and its 400. */
function failure(
  { label, summary, messages = {}, unknownMessage }: ValidatorOptions,
  schemas: ReadonlyMap<string, JsonSchema>,
  allowed: string,
  defaultLabel: string,
) {
  const messageFor = (field: string, keyword: string): string => {
    const given = Object.hasOwn(messages, field) ? messages[field] : undefined;
    if (typeof given === 'string') return given;
    if (given && Object.hasOwn(given, keyword)) return given[keyword] as string;
    const schema = schemas.get(field);
    return schema ? wording(schema, keyword) : 'is not valid';
  };
  const unknown = (name: string) =>
    unknownMessage?.(name, allowed) ?? `is not allowed (allowed: ${allowed})`;
  return {
    unknown,
    /** The problems with one message per field, the first ajv found for it. */
    addErrors(problems: Map<string, string> | undefined, errors: ErrorObject[]) {
      const found = problems ?? new Map<string, string>();
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
    error(details: ErrorDetail[]): BadRequest {
      const message = summary
        ? summary(details)
        : `Invalid ${label ?? defaultLabel}: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`;
      return new BadRequest(message, details);
    },
  };
}

/** The rule a keyword of `schema` sets, in words a client can act on. */
function wording(schema: JsonSchema, keyword: string): string {
  const { type, minimum, maximum, minLength, maxLength } = schema as Record<string, unknown>;
  const choices = schema.enum as unknown[] | undefined;
  if (choices)
    return choices.length === 1 ? `must be ${choices[0]}` : `must be one of ${choices.join(', ')}`;
  if (type === 'integer' || type === 'number') {
    const kind = type === 'integer' ? 'an integer' : 'a number';
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
  if (keyword === 'type' && typeof type === 'string') return `must be ${article(type)} ${type}`;
  return 'is not valid';
}

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

const isNumeric = (schema: JsonSchema) => schema.type === 'integer' || schema.type === 'number';
const isText = (p: Parameter) => p.in === 'query' && !isNumeric(p.schema);

/** RFC 8259's number: what a client's JSON library writes (leading zeros tolerated). */
const JSON_NUMBER = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
/** A path integer has one spelling: no leading zero, no "-0". */
const CANONICAL_INTEGER = /^(0|-?[1-9][0-9]*)$/;

/**
 * How a parameter's text becomes its value: a number when the schema wants one and the text
 * is one, else the text itself, for the schema to refuse. An integer beyond 2^53 is kept as
 * text too, since no JavaScript number holds it exactly: the schema's `maximum` (which every
 * integer parameter states) words the refusal.
 */
function reader(p: Parameter): (text: string) => unknown {
  if (!isNumeric(p.schema)) return (text) => text;
  const integer = p.schema.type === 'integer';
  const spelling = integer && p.in === 'path' ? CANONICAL_INTEGER : JSON_NUMBER;
  return (text) => {
    if (!spelling.test(text)) return text;
    const value = Number(text);
    if (!Number.isFinite(value)) return text;
    return integer && Number.isInteger(value) && !Number.isSafeInteger(value) ? text : value;
  };
}

function withoutFields(values: Record<string, unknown>, fields: ReadonlyMap<string, string>) {
  return Object.fromEntries(Object.entries(values).filter(([name]) => !fields.has(name)));
}
