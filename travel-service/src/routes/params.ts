import { BadRequest, type Context, type Parameter, parameterValidator } from 'service-kit';
import { MAX_NAME_LENGTH, NAME_CHARACTERS } from '../itineraries/destination.js';

/** The destination path parameter: the OpenAPI document shows it, and names are checked against it. */
export const destinationParameter: Parameter = {
  name: 'destination',
  in: 'path',
  required: true,
  description:
    'A display name or its URL form, matched case-insensitively: `New York`, `new york` or `new-york`. ' +
    `At most ${MAX_NAME_LENGTH} characters: letters, digits, spaces, . , - and an apostrophe (' or U+2019), percent-encoded. ` +
    'Broken percent-encoding, a longer name or another character is answered with 400.',
  schema: {
    type: 'string',
    minLength: 1,
    maxLength: MAX_NAME_LENGTH,
    pattern: NAME_CHARACTERS.source,
  },
};

const NAME_RULE = "may hold only letters, digits, spaces and . , ' -";
const wording = {
  summary: ([problem]: { message: string }[]) => `The destination ${problem?.message}`,
  messages: { destination: { pattern: NAME_RULE, minLength: NAME_RULE } },
};

const readName = parameterValidator<{ destination: string }>([destinationParameter], wording);

/** The home page's form sends the destination in the query: blank, it is not chosen. */
const readChoice = parameterValidator<{ destination?: string }>(
  [{ ...destinationParameter, in: 'query', required: false }],
  { ...wording, unknown: 'ignore', emptyIsAbsent: ['destination'] },
);

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
    const message = 'is not valid percent-encoding';
    throw new BadRequest(`The destination ${message}`, [{ field: 'destination', message }]);
  }
  return checkDestinationName(name);
}

/** A decoded name that a destination could have; 400 otherwise. */
export function checkDestinationName(name: string): string {
  return readName({ destination: name }).destination;
}

/** The destination chosen in the home page's form, trimmed; undefined when none was. */
export function chosenDestination(ctx: Context): string | undefined {
  return readChoice(ctx.query).destination;
}

/** The page of a paged list a URL asks for, from 1; other parameters are ignored. */
export const readPageNumber = parameterValidator<{ page?: number }>(
  [
    {
      name: 'page',
      in: 'query',
      description: 'The page of the list, from 1',
      schema: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    },
  ],
  { unknown: 'ignore' },
);
