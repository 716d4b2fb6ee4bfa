import type { JSONSchemaType } from 'ajv';
import {
  type ActivityTemplate,
  activityTemplateSchema,
  type Destination,
  destinationSchema,
  MAX_PRICE,
} from './destination.js';
import { fromCents, toCents } from './money.js';
import { wholePercents } from './percent.js';
import { type Random, randomInt } from './random.js';

export const MIN_ACTIVITIES = 3;
export const MAX_ACTIVITIES = 7;
/** About one activity in three is a highlight, so that some itineraries have none. */
export const HIGHLIGHT_CHANCE = 1 / 3;

export interface Activity {
  name: string;
  description: string;
  /** In currency units with at most 2 decimals, within the template's range. */
  price: number;
  highlight: boolean;
}

export interface Itinerary {
  /** The destination's display name. */
  destination: string;
  activities: Activity[];
  /** The exact sum of the prices. */
  totalCost: number;
}

// No `multipleOf: 0.01` in the answers' schemas: binary floats fail it in most validators.
// Prices are whole cents by construction (see money.ts); the tests check the decimals.
const amount = (maximum: number, description: string) =>
  ({ type: 'number', minimum: 0.01, maximum, description }) as const;

/** The one definition of an activity in the answers: documents the API, checked by the tests. */
export const activitySchema: JSONSchemaType<Activity> = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'description', 'price', 'highlight'],
  properties: {
    name: activityTemplateSchema.properties.name,
    description: activityTemplateSchema.properties.description,
    price: amount(MAX_PRICE, 'In US dollars, at most 2 decimals'),
    highlight: { type: 'boolean', description: 'Whether the activity is a must-do' },
  },
};

/** The one definition of an itinerary in the answers. */
export const itinerarySchema: JSONSchemaType<Itinerary> = {
  type: 'object',
  additionalProperties: false,
  required: ['destination', 'activities', 'totalCost'],
  properties: {
    destination: { ...destinationSchema.properties.name, description: "The destination's name" },
    activities: {
      type: 'array',
      minItems: MIN_ACTIVITIES,
      maxItems: MAX_ACTIVITIES,
      items: activitySchema,
    },
    totalCost: amount(
      MAX_ACTIVITIES * MAX_PRICE,
      'The exact sum of the prices, in US dollars, at most 2 decimals',
    ),
  },
};

/** An activity from its template: a price in whole cents anywhere in the range. */
export function generateActivity(template: ActivityTemplate, random: Random): Activity {
  const cents = randomInt(random, toCents(template.minPrice), toCents(template.maxPrice));
  return {
    name: template.name,
    description: template.description,
    price: fromCents(cents),
    highlight: random() < HIGHLIGHT_CHANCE,
  };
}

/** 3 to 7 distinct activities of the destination, in random order, and their total. */
export function generateItinerary(destination: Destination, random: Random): Itinerary {
  const pool = [...destination.activities];
  if (pool.length < MIN_ACTIVITIES) {
    throw new Error(`${destination.name} has fewer than ${MIN_ACTIVITIES} activities`);
  }
  const count = randomInt(random, MIN_ACTIVITIES, Math.min(MAX_ACTIVITIES, pool.length));
  const activities: Activity[] = [];
  // A partial Fisher-Yates shuffle: each pick is taken out of the pool.
  for (let i = 0; i < count; i++) {
    const j = randomInt(random, i, pool.length - 1);
    [pool[i], pool[j]] = [pool[j] as ActivityTemplate, pool[i] as ActivityTemplate];
    activities.push(generateActivity(pool[i] as ActivityTemplate, random));
  }
  return { destination: destination.name, activities, totalCost: totalOf(activities) };
}

/** The exact total: prices are whole cents, so they are summed as cents. */
export function totalOf(activities: readonly Activity[]): number {
  return fromCents(activities.reduce((sum, activity) => sum + toCents(activity.price), 0));
}

/** Each activity's share of the total, from 0 to 1, for the budget chart. */
export function budgetShares(itinerary: Itinerary): number[] {
  const total = toCents(itinerary.totalCost);
  return itinerary.activities.map((activity) => (total > 0 ? toCents(activity.price) / total : 0));
}

/** Each activity's share of the total in whole percents, for the budget list: they add up to 100. */
export function budgetPercents(itinerary: Itinerary): number[] {
  return wholePercents(itinerary.activities.map((activity) => toCents(activity.price)));
}
