import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { SeedError } from 'service-kit';
import { slugify } from '../../src/itineraries/destination.js';
import { loadDestinations, parseDestinations } from '../../src/itineraries/load.js';
import { checkDestinationName } from '../../src/routes/params.js';
import { makeDestination, makeTemplate } from '../fixtures.js';
import { seededDestinations } from '../helpers.js';

describe('loadDestinations', () => {
  it('accepts valid destinations', () => {
    const destinations = [makeDestination({ name: 'Alpha' }), makeDestination({ name: 'Bravo' })];
    expect(parseDestinations(destinations)).to.deep.equal(destinations);
  });

  it('names the bad record and field', () => {
    const broken = { ...makeDestination({ name: 'Broken' }), country: '' };
    expect(() => parseDestinations([makeDestination({ name: 'Fine' }), broken])).to.throw(
      SeedError,
      /record 1 \("Broken"\): field "country" must NOT have fewer than 1 characters/,
    );
  });

  it('names the bad activity inside a record', () => {
    const destination = makeDestination({ name: 'Lisbon' });
    destination.activities[2] = makeTemplate({ name: 'Fado Night', minPrice: 0 });
    expect(() => parseDestinations([destination])).to.throw(
      /record 0 \("Lisbon"\), activity 2 \("Fado Night"\): field "minPrice" must be > 0/,
    );
  });

  it('reports a missing field, an unknown field and a wrong type', () => {
    const { summary: _, ...noSummary } = makeDestination();
    const extra = { ...makeDestination(), rating: 3 };
    const wrongType = makeDestination();
    (wrongType.activities[0] as unknown as { maxPrice: string }).maxPrice = '20';
    expect(() => parseDestinations([noSummary])).to.throw(
      /record 0 .*field "summary" must have required/,
    );
    expect(() => parseDestinations([extra])).to.throw(/record 0 .*field "rating" is not allowed/);
    expect(() => parseDestinations([wrongType])).to.throw(
      /activity 0 .*field "maxPrice" must be number/,
    );
  });

  it('rejects prices with more than 2 decimals, and a range upside down', () => {
    const tooPrecise = makeDestination();
    tooPrecise.activities[1] = makeTemplate({ name: 'Precise', minPrice: 1.005 });
    expect(() => parseDestinations([tooPrecise])).to.throw(
      /activity 1 \("Precise"\): field "minPrice" must be multiple of 0.01/,
    );
    const upsideDown = makeDestination();
    upsideDown.activities[3] = makeTemplate({ name: 'Backwards', minPrice: 50, maxPrice: 40 });
    expect(() => parseDestinations([upsideDown])).to.throw(
      /activity 3 \("Backwards"\): field "minPrice" is above maxPrice/,
    );
    const cents = makeDestination();
    cents.activities[0] = makeTemplate({ minPrice: 0.01, maxPrice: 19.99 });
    expect(parseDestinations([cents])).to.have.length(1);
  });

  it('requires at least 10 activities of distinct names', () => {
    expect(() => parseDestinations([makeDestination({ name: 'Small' }, 9)])).to.throw(
      /record 0 \("Small"\): field "activities" must NOT have fewer than 10 items/,
    );
    const twice = makeDestination();
    twice.activities[4] = makeTemplate({ name: 'Activity 1' });
    expect(() => parseDestinations([twice])).to.throw(
      /activity 4 \("Activity 1"\): field "name" repeats activity 0/,
    );
  });

  it('rejects repeated names, names giving the same URL, and characters a name cannot hold', () => {
    expect(() =>
      parseDestinations([makeDestination({ name: 'Oslo' }), makeDestination({ name: 'oslo' })]),
    ).to.throw(/record 1 \("oslo"\): field "name" repeats record 0/);
    expect(() =>
      parseDestinations([
        makeDestination({ name: 'Saint-Malo' }),
        makeDestination({ name: 'Saint Malo' }),
      ]),
    ).to.throw(/record 1 \("Saint Malo"\): field "name" gives the same URL as record 0/);
    for (const name of ['Bad/Name', 'A<b>', 'Semi;colon', 'Tab\there', '-', 'x'.repeat(101)]) {
      expect(() => parseDestinations([makeDestination({ name })]), name).to.throw(
        /record 0 .*field "name"/,
      );
    }
  });

  it('rejects a file that is not JSON, not an array, or empty', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'destinations-'));
    writeFileSync(join(dir, 'bad.json'), '[{"name": "Oslo",');
    const refusal = (file: string) =>
      loadDestinations(join(dir, file)).then(
        () => expect.fail(`${file} was loaded`),
        (error: unknown) => {
          expect(error).to.be.instanceOf(SeedError);
          return (error as Error).message;
        },
      );
    expect(await refusal('bad.json')).to.match(/bad\.json: cannot read/);
    expect(await refusal('missing.json')).to.match(/ENOENT/);
    expect(() => parseDestinations({ destinations: [] })).to.throw(
      /the file must hold a JSON array of destinations/,
    );
    expect(() => parseDestinations([])).to.throw(/the file holds no destinations/);
  });

  describe('the seed file', () => {
    it('holds at least 12 destinations of at least 10 activities each', () => {
      expect(seededDestinations.length).to.be.at.least(12);
      for (const destination of seededDestinations) {
        expect(destination.activities.length, destination.name).to.be.at.least(10);
      }
    });

    it('uses display names that make readable URLs', () => {
      const names = seededDestinations.map((d) => d.name);
      expect(names).to.include.members(['New York', 'Rio de Janeiro', 'Kyoto']);
      for (const name of names) {
        expect(checkDestinationName(name), name).to.equal(name);
        expect(slugify(name), name).to.match(/^[a-z]+(-[a-z]+)*$/);
      }
    });

    it('gives every activity a description and a price range from cents to hundreds', () => {
      for (const destination of seededDestinations) {
        for (const activity of destination.activities) {
          expect(activity.description.length, activity.name).to.be.at.least(30);
          expect(activity.minPrice, activity.name).to.be.above(0).and.at.most(activity.maxPrice);
        }
      }
    });
  });
});

describe('slugify', () => {
  it('lowercases, drops accents and joins words with hyphens', () => {
    expect(slugify('Rio de Janeiro')).to.equal('rio-de-janeiro');
    expect(slugify('New York')).to.equal('new-york');
    expect(slugify('Reykjavík')).to.equal('reykjavik');
    expect(slugify("St. John's")).to.equal('st-john-s');
    expect(slugify('  Köln – Süd ')).to.equal('koln-sud');
    expect(slugify('東京')).to.equal('東京');
  });
});
