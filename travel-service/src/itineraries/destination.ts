import type { JSONSchemaType } from 'ajv';

/** What an activity of a destination may be: its price is drawn from the range. */
export interface ActivityTemplate {
  name: string;
  description: string;
  /** In currency units, at most 2 decimals, > 0. */
  minPrice: number;
  maxPrice: number;
}

export interface Destination {
  /** The display name, such as "Rio de Janeiro". */
  name: string;
  country: string;
  summary: string;
  activities: ActivityTemplate[];
}

/** An itinerary draws up to 7 activities without repetition; the data keeps a wider pool. */
export const MIN_TEMPLATES = 10;
export const MAX_NAME_LENGTH = 100;
export const MAX_PRICE = 100_000;

/**
 * Every character a destination name may hold: letters (any script), combining marks,
 * digits, spaces and . , ' ’ -. The seed file is held to it, and a request naming a
 * destination with any other character is malformed. The ’ is written \u2019: the API reference
 * shows the pattern, and a page with a character above U+00FF is a two-byte string in V8.
 */
export const NAME_CHARACTERS = /^[\p{L}\p{M}\p{N} .,'\u2019-]+$/u;

/** The URL form of a name: "Rio de Janeiro" -> "rio-de-janeiro", "Reykjavík" -> "reykjavik". */
export function slugify(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

const text = { type: 'string', minLength: 1, maxLength: 2000 } as const;
const price = {
  type: 'number',
  exclusiveMinimum: 0,
  maximum: MAX_PRICE,
  multipleOf: 0.01,
} as const;

export const activityTemplateSchema: JSONSchemaType<ActivityTemplate> = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'description', 'minPrice', 'maxPrice'],
  properties: {
    name: { ...text, maxLength: 200 },
    description: text,
    minPrice: price,
    maxPrice: price,
  },
};

/** The one definition of a destination record of the seed file. */
export const destinationSchema: JSONSchemaType<Destination> = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'country', 'summary', 'activities'],
  properties: {
    name: { ...text, maxLength: MAX_NAME_LENGTH, pattern: NAME_CHARACTERS.source },
    country: { ...text, maxLength: 200 },
    summary: text,
    activities: { type: 'array', minItems: MIN_TEMPLATES, items: activityTemplateSchema },
  },
};
