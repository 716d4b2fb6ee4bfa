import { BadRequest, type Context, type Parameter } from 'service-kit';
import { MAX_NAME_LENGTH, NAME_CHARACTERS } from '../itineraries/destination.js';

/** The destination path parameter, documented with the very rules `checkDestinationName` applies. */
export const destinationParameter: Parameter = {
  name: 'destination',
  in: 'path',
  required: true,
  description:
    'A display name or its URL form, matched case-insensitively: `New York`, `new york` or `new-york`. ' +
    `At most ${MAX_NAME_LENGTH} characters: letters, digits, spaces and . , ' ’ -, percent-encoded. ` +
    'Broken percent-encoding, a longer name or another character is answered with 400.',
  schema: {
    type: 'string',
    minLength: 1,
    maxLength: MAX_NAME_LENGTH,
    pattern: NAME_CHARACTERS.source,
  },
};

const invalid = (message: string) =>
  new BadRequest(`The destination ${message}`, [{ field: 'destination', message }]);

/**
 * The destination named by the route's one path parameter, percent-decoded; 400 when
 * the encoding is broken or no destination could have that name. @koa/router decodes
 * parameters itself but keeps the raw text when the encoding is broken, so the raw
 * capture is decoded here to tell the two apart.
 */
export function destinationParam(ctx: Context): string {
  const raw = (ctx.captures as string[] | undefined)?.[0] ?? '';
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
