import type { ErrorObject } from 'ajv';
import {
  compileSchema,
  fieldProblem,
  loadSeedFile,
  parseSeed,
  recordLabel,
  type SeedRules,
} from 'service-kit';
import { type Destination, destinationSchema, slugify } from './destination.js';

const validate = compileSchema<Destination[]>({
  type: 'array',
  minItems: 1,
  items: destinationSchema,
});

const rules: SeedRules<Destination[]> = {
  what: 'destinations',
  validate,
  describe: (error, data) => describe(error, data),
  check: (destinations) => findInconsistencies(destinations),
};

/** Reads and validates the seed file; a broken file names the bad record and field. */
export const loadDestinations = (file: string): Destination[] => loadSeedFile(file, rules);

export const parseDestinations = (data: unknown, source = 'destinations'): Destination[] =>
  parseSeed(data, source, rules);

/** "/3/activities/2/minPrice" -> record 3 ("Lisbon"), activity 2 ("Fado Night"): field "minPrice" ... */
function describe(error: ErrorObject, data: unknown): string {
  const [, index, field, activityIndex, activityField] = error.instancePath.split('/');
  if (index === undefined) return `the file ${error.message}`;
  const record = Array.isArray(data) ? data[Number(index)] : undefined;
  let where = recordLabel('record', index, record);
  let name = field;
  if (field === 'activities' && activityIndex !== undefined) {
    const activity = record?.activities?.[Number(activityIndex)];
    where += `, ${recordLabel('activity', activityIndex, activity)}`;
    name = activityField;
  }
  return `${where}: ${fieldProblem(error, name) ?? error.message}`;
}

/** What the schema cannot say: ranges in order, names and URLs unique. */
function findInconsistencies(destinations: Destination[]): string[] {
  const problems: string[] = [];
  const names = new Map<string, number>();
  const slugs = new Map<string, number>();
  destinations.forEach((destination, index) => {
    const where = recordLabel('record', index, destination);
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
      const at = `${where}, ${recordLabel('activity', activityIndex, activity)}`;
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
