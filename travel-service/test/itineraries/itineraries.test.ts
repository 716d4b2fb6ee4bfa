import { Ajv } from 'ajv';
import { expect } from 'chai';
import {
  Itineraries,
  type Planned,
  planItineraries,
  summarySchema,
  toSummary,
} from '../../src/itineraries/itineraries.js';
import { seededRandom } from '../../src/itineraries/random.js';
import { makeDestination } from '../fixtures.js';
import { seededDestinations } from '../helpers.js';

describe('Itineraries', () => {
  const destinations = ['Rio de Janeiro', 'Kyoto', 'New York', 'São Paulo'].map((name) =>
    makeDestination({ name }),
  );
  const itineraries = new Itineraries(destinations, seededRandom('index'));

  it('plans one itinerary per destination, listed by name', () => {
    expect(itineraries.size).to.equal(4);
    expect(itineraries.all.map((e) => e.destination.name)).to.deep.equal([
      'Kyoto',
      'New York',
      'Rio de Janeiro',
      'São Paulo',
    ]);
    for (const entry of itineraries.all)
      expect(entry.itinerary.destination).to.equal(entry.destination.name);
  });

  it('finds a destination by display name or slug, whatever the case', () => {
    for (const asked of ['New York', 'new york', 'NEW YORK', 'new-york', 'New-York']) {
      expect(itineraries.find(asked)?.destination.name, asked).to.equal('New York');
    }
    expect(itineraries.find('são paulo')?.slug).to.equal('sao-paulo');
    expect(itineraries.find('sao-paulo')?.destination.name).to.equal('São Paulo');
    // The same name, composed differently in Unicode.
    expect(itineraries.find('Sa\u0303o Paulo')?.slug).to.equal('sao-paulo');
  });

  it('finds nothing for other names', () => {
    for (const asked of ['Atlantis', 'newyork', 'new_york', ' New York', 'new-york-', '']) {
      expect(itineraries.find(asked), asked).to.equal(undefined);
    }
  });

  it('picks each itinerary at random', () => {
    const random = seededRandom('pick');
    const seen = new Set(Array.from({ length: 100 }, () => itineraries.pick(random).slug));
    expect(seen.size).to.equal(4);
    expect(itineraries.pick(() => 0.999999).destination.name).to.equal('São Paulo');
  });

  it('summarizes an itinerary for the list', () => {
    const { itinerary } = itineraries.all[0] as Planned;
    expect(toSummary(itinerary)).to.deep.equal({
      destination: 'Kyoto',
      activityCount: itinerary.activities.length,
      totalCost: itinerary.totalCost,
    });
  });

  it('gives summaries that fit the schema the API documents', () => {
    const fitsSchema = new Ajv({ allErrors: true }).compile(summarySchema);
    for (let seed = 0; seed < 50; seed++) {
      for (const { itinerary } of planItineraries(seededDestinations, String(seed)).all) {
        const summary = toSummary(itinerary);
        expect(fitsSchema(summary), JSON.stringify(fitsSchema.errors)).to.equal(true);
      }
    }
    expect(fitsSchema({ ...toSummary(itineraries.all[0]!.itinerary), extra: 1 })).to.equal(false);
  });
});

describe('planItineraries', () => {
  it('gives the same itineraries for the same seed, and others for another seed', () => {
    const a = planItineraries(seededDestinations, 'replica');
    const b = planItineraries(seededDestinations, 'replica');
    const c = planItineraries(seededDestinations, 'other');
    expect(b.all.map((e) => e.itinerary)).to.deep.equal(a.all.map((e) => e.itinerary));
    expect(c.all.map((e) => e.itinerary)).to.not.deep.equal(a.all.map((e) => e.itinerary));
  });
});
