import { Ajv } from 'ajv';
import { expect } from 'chai';
import fc from 'fast-check';
import type { ActivityTemplate, Destination } from '../../src/itineraries/destination.js';
import {
  type Activity,
  budgetPercents,
  budgetShares,
  generateActivity,
  generateItinerary,
  itinerarySchema,
} from '../../src/itineraries/generate.js';
import { seededRandom } from '../../src/itineraries/random.js';
import { makeDestination, makeTemplate } from '../fixtures.js';
import { seededDestinations } from '../helpers.js';

const RUNS = 500;
/** fast-check draws from a fixed seed: a failure is replayed by running the tests again. */
const SEED = 20_260_101;
/** The schema the API documents its answers with: every itinerary must fit it. */
const fitsSchema = new Ajv({ allErrors: true }).compile(itinerarySchema);

/** A template whose bounds are whole cents from $0.01 to $100,000, min <= max. */
const templateArb = fc
  .tuple(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 0, max: 500_000 }))
  .map(([minCents, spread]) =>
    makeTemplate({
      minPrice: minCents / 100,
      maxPrice: Math.min(minCents + spread, 10_000_000) / 100,
    }),
  );

/** A destination with 3 to 15 templates of distinct names. */
const destinationArb = fc
  .array(templateArb, { minLength: 3, maxLength: 15 })
  .map((templates) =>
    makeDestination({ activities: templates.map((t, i) => ({ ...t, name: `Activity ${i}` })) }),
  );

const seedArb = fc.string();

/** Exact cents of a price, read from its decimal text rather than by arithmetic. */
const centsOf = (price: number) => {
  const [units, decimals = ''] = String(price).split('.');
  if (decimals.length > 2) throw new Error(`${price} has more than 2 decimals`);
  return BigInt(units ?? '0') * 100n + BigInt(decimals.padEnd(2, '0'));
};

function expectActivityOf(activity: Activity, template: ActivityTemplate) {
  expect(activity).to.have.all.keys(['name', 'description', 'price', 'highlight']);
  expect(activity.name).to.be.a('string').and.equal(template.name);
  expect(activity.description).to.be.a('string').and.equal(template.description);
  expect(activity.price).to.be.a('number');
  expect(Number.isFinite(activity.price)).to.equal(true);
  expect(activity.price).to.be.above(0);
  expect(activity.price).to.be.within(template.minPrice, template.maxPrice);
  expect(Math.round(activity.price * 100) / 100).to.equal(activity.price);
  expect(activity.highlight).to.be.a('boolean');
}

function expectValidItinerary(
  itinerary: ReturnType<typeof generateItinerary>,
  destination: Destination,
) {
  expect(itinerary).to.have.all.keys(['destination', 'activities', 'totalCost']);
  expect(fitsSchema(itinerary), JSON.stringify(fitsSchema.errors)).to.equal(true);
  expect(itinerary.destination).to.equal(destination.name);
  const count = itinerary.activities.length;
  expect(count).to.be.within(3, Math.min(7, destination.activities.length));
  const names = itinerary.activities.map((a) => a.name);
  expect(new Set(names).size, 'no activity twice').to.equal(count);
  for (const activity of itinerary.activities) {
    const template = destination.activities.find((t) => t.name === activity.name);
    expect(template, activity.name).to.not.equal(undefined);
    expectActivityOf(activity, template as ActivityTemplate);
  }
  const sum = itinerary.activities.reduce((total, a) => total + centsOf(a.price), 0n);
  expect(centsOf(itinerary.totalCost)).to.equal(sum);
}

describe('generateActivity', () => {
  it('copies the template and draws a whole-cent price inside its range', () => {
    fc.assert(
      fc.property(templateArb, seedArb, (template, seed) => {
        expectActivityOf(generateActivity(template, seededRandom(seed)), template);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('can give both ends of the range and every cent between', () => {
    const template = makeTemplate({ minPrice: 1, maxPrice: 1.03 });
    const random = seededRandom('ends');
    const prices = new Set(
      Array.from({ length: 400 }, () => generateActivity(template, random).price),
    );
    expect([...prices].sort()).to.deep.equal([1, 1.01, 1.02, 1.03]);
  });

  it('gives a fixed price when the range is a single value', () => {
    const template = makeTemplate({ minPrice: 3.1, maxPrice: 3.1 });
    expect(generateActivity(template, seededRandom('fixed')).price).to.equal(3.1);
  });

  it('marks some activities as highlights and some not', () => {
    const random = seededRandom('highlights');
    const flags = Array.from(
      { length: 300 },
      () => generateActivity(makeTemplate(), random).highlight,
    );
    const share = flags.filter(Boolean).length / flags.length;
    expect(share).to.be.within(0.2, 0.5);
  });
});

describe('generateItinerary', () => {
  it('gives 3 to 7 distinct activities of the destination and their exact total (property)', () => {
    fc.assert(
      fc.property(destinationArb, seedArb, (destination, seed) => {
        expectValidItinerary(generateItinerary(destination, seededRandom(seed)), destination);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('holds for every seeded destination over hundreds of seeds', function () {
    // About 2 s of CPU: more than the default timeout on a machine busy with other work.
    this.timeout(60_000);
    for (const destination of seededDestinations) {
      for (let seed = 0; seed < 200; seed++) {
        expectValidItinerary(generateItinerary(destination, seededRandom(seed)), destination);
      }
    }
  });

  it('gives every count from 3 to 7, each about as often', () => {
    const destination = makeDestination({}, 12);
    const counts = new Map<number, number>();
    for (let seed = 0; seed < 1_000; seed++) {
      const { length } = generateItinerary(destination, seededRandom(`count ${seed}`)).activities;
      counts.set(length, (counts.get(length) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).to.deep.equal([3, 4, 5, 6, 7]);
    for (const times of counts.values()) expect(times).to.be.within(130, 270);
  });

  it('can draw every activity of the pool', () => {
    const destination = seededDestinations[0] as Destination;
    const seen = new Set<string>();
    for (let seed = 0; seed < 200; seed++) {
      for (const activity of generateItinerary(destination, seededRandom(seed)).activities) {
        seen.add(activity.name);
      }
    }
    expect(seen.size).to.equal(destination.activities.length);
  });

  it('gives the same itinerary for the same seed and differs between seeds', () => {
    for (const destination of seededDestinations) {
      const a = generateItinerary(destination, seededRandom('same'));
      expect(generateItinerary(destination, seededRandom('same'))).to.deep.equal(a);
    }
    const destination = seededDestinations[1] as Destination;
    const plans = new Set(
      Array.from({ length: 20 }, (_, i) =>
        JSON.stringify(generateItinerary(destination, seededRandom(i))),
      ),
    );
    expect(plans.size).to.be.greaterThan(15);
  });

  it('keeps within a small pool and refuses one too small', () => {
    for (let seed = 0; seed < 50; seed++) {
      expect(
        generateItinerary(makeDestination({}, 3), seededRandom(seed)).activities,
      ).to.have.length(3);
      expect(
        generateItinerary(makeDestination({}, 5), seededRandom(seed)).activities.length,
      ).to.be.within(3, 5);
    }
    expect(() => generateItinerary(makeDestination({}, 2), seededRandom(1))).to.throw(
      /fewer than 3/,
    );
  });

  it('sums prices whose floating-point sum would drift, exactly', () => {
    const destination = makeDestination({
      activities: ['A', 'B', 'C'].map((name) =>
        makeTemplate({ name, minPrice: 0.1, maxPrice: 0.1 }),
      ),
    });
    // 0.1 + 0.1 + 0.1 is 0.30000000000000004 in floating point.
    expect(generateItinerary(destination, seededRandom(1)).totalCost).to.equal(0.3);
  });
});

describe('budgetShares', () => {
  it('gives each activity its share of the total, adding up to 1', () => {
    fc.assert(
      fc.property(destinationArb, seedArb, (destination, seed) => {
        const itinerary = generateItinerary(destination, seededRandom(seed));
        const shares = budgetShares(itinerary);
        expect(shares).to.have.length(itinerary.activities.length);
        for (const share of shares) expect(share).to.be.within(0, 1);
        expect(shares.reduce((a, b) => a + b, 0)).to.be.closeTo(1, 1e-9);
      }),
      { numRuns: 200, seed: SEED },
    );
  });
});

describe('budgetPercents', () => {
  it("gives each activity's share in whole percents, from its exact cents, adding up to 100", () => {
    const itinerary = {
      destination: 'Testville',
      activities: [0.1, 0.1, 0.1].map((price) => ({
        name: String(price),
        description: 'x',
        price,
        highlight: false,
      })),
      totalCost: 0.3,
    };
    expect(budgetPercents(itinerary)).to.deep.equal([34, 33, 33]);
    fc.assert(
      fc.property(destinationArb, seedArb, (destination, seed) => {
        const percents = budgetPercents(generateItinerary(destination, seededRandom(seed)));
        expect(percents.reduce((a, b) => a + b, 0)).to.equal(100);
      }),
      { numRuns: 200, seed: SEED },
    );
  });
});
