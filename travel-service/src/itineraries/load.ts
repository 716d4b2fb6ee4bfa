import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import { type Destination, destinationSchema, slugify } from './destination.js';

export class SeedError extends Error {
  override name = 'SeedError';
}

const validateDestinations = new Ajv({ allErrors: true, multipleOfPrecision: 9 }).compile<
  Destination[]
>({
  type: 'array',
  minItems: 1,
  items: destinationSchema,
});

/** Reads and validates the seed file; a broken file names the bad record and field. */
export function loadDestinations(file: string): Destination[] {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new SeedError(`${file}: cannot read the destinations: ${(error as Error).message}`);
  }
  return parseDestinations(data, file);
}

export function parseDestinations(data: unknown, source = 'destinations'): Destination[] {
  if (!validateDestinations(data)) {
    const problems = (validateDestinations.errors ?? []).map((error) => describe(error, data));
    throw new SeedError(`${source}: invalid destinations:\n  ${problems.join('\n  ')}`);
  }
  const problems = findInconsistencies(data);
  if (problems.length > 0) {
    throw new SeedError(`${source}: invalid destinations:\n  ${problems.join('\n  ')}`);
  }
  return data;
}

const label = (kind: string, index: string | number, record: unknown) =>
  record && typeof record === 'object' && 'name' in record
    ? `${kind} ${index} (${JSON.stringify(record.name)})`
    : `${kind} ${index}`;

/** "/3/activities/2/minPrice" -> record 3 ("Lisbon"), activity 2 ("Fado Night"): field "minPrice" ... */
function describe(error: ErrorObject, data: unknown): string {
  const [, index, field, activityIndex, activityField] = error.instancePath.split('/');
  if (index === undefined) return `the file ${error.message}`;
  const record = Array.isArray(data) ? data[Number(index)] : undefined;
  let where = label('record', index, record);
  let name = field;
  if (field === 'activities' && activityIndex !== undefined) {
    const activity = record?.activities?.[Number(activityIndex)];
    where += `, ${label('activity', activityIndex, activity)}`;
    name = activityField;
  }
  name ??= error.params.missingProperty ?? error.params.additionalProperty;
  if (name === undefined) return `${where}: ${error.message}`;
  const message = error.keyword === 'additionalProperties' ? 'is not allowed' : error.message;
  return `${where}: field "${name}" ${message}`;
}

/** What the schema cannot say: ranges in order, names and URLs unique. */
function findInconsistencies(destinations: Destination[]): string[] {
  const problems: string[] = [];
  const names = new Map<string, number>();
  const slugs = new Map<string, number>();
  destinations.forEach((destination, index) => {
    const where = label('record', index, destination);
    const key = destination.name.toLowerCase();
    const sameName = names.get(key);
    if (sameName === undefined) names.set(key, index);
    else problems.push(`${where}: field "name" repeats record ${sameName}`);
    const slug = slugify(destination.name);
    const sameSlug = slugs.get(slug);
    if (slug === '') problems.push(`${where}: field "name" has no letter or digit`);
    else if (sameSlug === undefined) slugs.set(slug, index);
    else if (sameName === undefined) {
      problems.push(`${where}: field "name" gives the same URL as record ${sameSlug}`);
    }
    const activityNames = new Map<string, number>();
    destination.activities.forEach((activity, activityIndex) => {
      const at = `${where}, ${label('activity', activityIndex, activity)}`;
      const first = activityNames.get(activity.name);
      if (first === undefined) activityNames.set(activity.name, activityIndex);
      else problems.push(`${at}: field "name" repeats activity ${first}`);
      if (activity.minPrice > activity.maxPrice) {
        problems.push(`${at}: field "minPrice" is above maxPrice`);
      }
    });
  });
  return problems;
}
