import type { Context } from 'koa';
import { httpError } from '../http/errors.js';

const POSITIVE_INTEGER = /^[1-9][0-9]{0,15}$/;

/** A path id as a positive safe integer, or undefined when it cannot be one. */
export function parseId(raw: string | undefined): number | undefined {
  if (raw === undefined || !POSITIVE_INTEGER.test(raw)) return undefined;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : undefined;
}

/** An optional integer query parameter within [min, max]; 400 otherwise. */
export function integerQuery(
  ctx: Context,
  name: string,
  min: number,
  max: number,
): number | undefined {
  const raw = ctx.query[name];
  if (raw === undefined) return undefined;
  const value = typeof raw === 'string' && /^-?[0-9]{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max)) {
    throw httpError(400, `${name} must be an integer from ${min} to ${max}`, [
      { field: name, message: `must be a single integer from ${min} to ${max}` },
    ]);
  }
  return value;
}
