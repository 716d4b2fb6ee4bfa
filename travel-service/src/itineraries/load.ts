import { seedFile } from 'service-kit';
import { type Destination, destinationSchema, slugify } from './destination.js';

const destinationsFile = seedFile<Destination>({
  what: 'destinations',
  recordSchema: destinationSchema,
  nested: { activities: 'activity' },
  check: findInconsistencies,
});

/**
 * Reads and validates the seed file, as a stream, and resolves to its destinations and its
 * version; a broken file names the bad record and field, a file too large for the process is
 * refused.
 */
export const loadDestinations = destinationsFile.load;

export const parseDestinations = (data: unknown, source = 'destinations'): Destination[] =>
  destinationsFile.parse(data, source);

/** What the schema cannot say: ranges in order, names and URLs unique (`label` names a record). */
function findInconsistencies(
  destinations: Destination[],
  label: (kind: string, index: number, record: unknown) => string,
): string[] {
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
