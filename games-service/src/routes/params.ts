import { BadRequest, type Context, type Parameter } from 'service-kit';

const POSITIVE_INTEGER = /^[1-9][0-9]{0,15}$/;

export const idParameter: Parameter = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The game id, a positive integer',
  schema: { type: 'integer', minimum: 1 },
};

export const limitParameter: Parameter = {
  name: 'limit',
  in: 'query',
  description: 'At most this many games',
  schema: { type: 'integer', minimum: 1, maximum: 1000 },
};

/** A path id as a positive safe integer, or undefined when it cannot be one. */
export function parseId(raw: string | undefined): number | undefined {
  if (raw === undefined || !POSITIVE_INTEGER.test(raw)) return undefined;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : undefined;
}

/** An optional integer query parameter within its documented bounds; 400 otherwise. */
export function integerQuery(ctx: Context, { name, schema }: Parameter): number | undefined {
  const raw = ctx.query[name];
  if (raw === undefined) return undefined;
  const { minimum: min, maximum: max } = schema as { minimum: number; maximum: number };
  const value = typeof raw === 'string' && /^-?[0-9]{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max)) {
    throw new BadRequest(`${name} must be an integer from ${min} to ${max}`, [
      { field: name, message: `must be a single integer from ${min} to ${max}` },
    ]);
  }
  return value;
}
