import type { RouterContext } from '@koa/router';
import { httpError } from '../http/errors.js';
import { MAX_NAME_LENGTH, NAME_CHARACTERS } from '../itineraries/destination.js';

const invalid = (message: string) =>
  httpError(400, `The destination ${message}`, [{ field: 'destination', message }]);

/**
 * The destination named by the route's one path parameter, percent-decoded; 400 when
 * the encoding is broken or no destination could have that name. @koa/router decodes
 * parameters itself but keeps the raw text when the encoding is broken, so the raw
 * capture is decoded here to tell the two apart.
 */
export function destinationParam(ctx: RouterContext): string {
  const raw = ctx.captures?.[0] ?? '';
  let name: string;
  try {
    name = decodeURIComponent(raw);
  } catch {
    throw invalid('is not valid percent-encoding');
  }
  return checkDestinationName(name);
}

/** A decoded name that a destination could have; 400 otherwise. */
export function checkDestinationName(name: string): string {
  if ([...name].length > MAX_NAME_LENGTH) {
    throw invalid(`must be at most ${MAX_NAME_LENGTH} characters`);
  }
  if (!NAME_CHARACTERS.test(name)) {
    throw invalid("may hold only letters, digits, spaces and . , ' -");
  }
  return name;
}
