import type { ActivityTemplate, Destination } from '../src/itineraries/destination.js';

/** A valid activity template; override only what a test is about. */
export function makeTemplate(overrides: Partial<ActivityTemplate> = {}): ActivityTemplate {
  return {
    name: 'Harbour Walk',
    description: 'A walk along the water made for the tests.',
    minPrice: 10,
    maxPrice: 20.5,
    ...overrides,
  };
}

/** A valid destination with `count` templates named "Activity 1", "Activity 2"... */
export function makeDestination(overrides: Partial<Destination> = {}, count = 10): Destination {
  return {
    name: 'Testville',
    country: 'Testland',
    summary: 'A town made for the tests.',
    activities: Array.from({ length: count }, (_, i) =>
      makeTemplate({ name: `Activity ${i + 1}`, minPrice: i + 0.5, maxPrice: i + 30 }),
    ),
    ...overrides,
  };
}
