import { hash } from 'node:crypto';
import type { JSONSchemaType } from 'ajv';
import { type Destination, slugify } from './destination.js';
import { generateItinerary, type Itinerary, itinerarySchema } from './generate.js';
import { type Random, seededRandom } from './random.js';

/** A destination with its itinerary and the slug its page lives under. */
export interface Planned {
  slug: string;
  destination: Destination;
  itinerary: Itinerary;
}

/** The fields of an itinerary in the list answer. */
export interface ItinerarySummary {
  destination: string;
  activityCount: number;
  totalCost: number;
}

const itineraryFields = itinerarySchema.properties;

/** The one definition of a summary in the list answer, made of the itinerary's fields. */
export const summarySchema: JSONSchemaType<ItinerarySummary> = {
  type: 'object',
  additionalProperties: false,
  required: ['destination', 'activityCount', 'totalCost'],
  properties: {
    destination: itineraryFields.destination,
    activityCount: {
      type: 'integer',
      minimum: itineraryFields.activities.minItems,
      maximum: itineraryFields.activities.maxItems,
      description: 'How many activities the itinerary has',
    },
    totalCost: itineraryFields.totalCost,
  },
};

export function toSummary({ destination, activities, totalCost }: Itinerary): ItinerarySummary {
  return { destination, activityCount: activities.length, totalCost };
}

const key = (text: string) => text.normalize('NFC').toLowerCase();

/**
 * One itinerary per destination, generated once from the random source (in the
 * order of the file, so that a seed always gives the same plans) and never changed.
 */
export class Itineraries {
  /** By destination name, alphabetical. */
  readonly all: readonly Planned[];
  readonly #byKey = new Map<string, Planned>();
  /**
   * What names these plans, and only these: 16 characters of base64url from the destinations
   * file's version and the seed the plans were drawn with (planItineraries). The tags of the
   * answers that list them are made from it. The default is for tests only.
   */
  readonly version: string;

  constructor(destinations: readonly Destination[], random: Random, version = 'unversioned') {
    this.version = version;
    const planned = destinations.map((destination) => ({
      slug: slugify(destination.name),
      destination,
      itinerary: generateItinerary(destination, random),
    }));
    this.all = planned.sort((a, b) => a.destination.name.localeCompare(b.destination.name, 'en'));
    for (const entry of this.all) {
      this.#byKey.set(key(entry.destination.name), entry);
      this.#byKey.set(key(entry.slug), entry);
    }
  }

  get size(): number {
    return this.all.length;
  }

  /** By display name or slug, case-insensitively: "New York", "new york", "new-york". */
  find(name: string): Planned | undefined {
    return this.#byKey.get(key(name));
  }

  /** One itinerary chosen uniformly at random. */
  pick(random: Random = Math.random): Planned {
    const entry = this.all[Math.floor(random() * this.all.length)];
    if (!entry) throw new Error('There is no itinerary to pick from');
    return entry;
  }
}

/**
 * The itineraries a seed gives: every process started with the same seed serves the same.
 * `fileVersion` names the destinations (their file's SHA-1); with the seed, it names the plans.
 */
export function planItineraries(
  destinations: readonly Destination[],
  seed: string,
  fileVersion = 'unversioned',
): Itineraries {
  const version = hash('sha1', JSON.stringify([fileVersion, seed]), 'base64url').slice(0, 16);
  return new Itineraries(destinations, seededRandom(seed), version);
}
