import type { ActivityTemplate, Destination } from './destination.js';
import { fromCents, toCents } from './money.js';
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
