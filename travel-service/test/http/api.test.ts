import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import {
  type Itineraries,
  type Planned,
  planItineraries,
} from '../../src/itineraries/itineraries.js';
import {
  expectErrorBody,
  seededItineraries as itineraries,
  request,
  seededApp,
  seededDestinations,
  seededEntry,
  TEST_SEED,
} from '../helpers.js';

const ACTIVITY_KEYS = ['name', 'description', 'price', 'highlight'];

describe('JSON API /api/itineraries', () => {
  const app = seededApp().callback();
  const newYork = seededEntry('new-york');
  const withHighlights = itineraries.all.find((e) =>
    e.itinerary.activities.some((a) => a.highlight),
  ) as Planned;

  it('GET /api/itineraries lists one summary per destination', async () => {
    const res = await request(app)
      .get('/api/itineraries')
      .expect(200)
      .expect('Content-Type', /json/);
    expect(res.body).to.be.an('array').with.length(itineraries.size);
    expect(res.body).to.deep.equal(
      itineraries.all.map(({ itinerary }) => ({
        destination: itinerary.destination,
        activityCount: itinerary.activities.length,
        totalCost: itinerary.totalCost,
      })),
    );
    expect(res.body.map((s: { destination: string }) => s.destination)).to.have.members(
      seededDestinations.map((d) => d.name),
    );
    expect(res.headers['cache-control']).to.equal('public, max-age=300');
  });

  describe('GET /api/itineraries/:destination', () => {
    it('gives the full itinerary', async () => {
      const res = await request(app)
        .get('/api/itineraries/new-york')
        .expect(200)
        .expect('Content-Type', /json/);
      expect(res.body).to.deep.equal(newYork.itinerary);
      expect(res.body).to.have.all.keys(['destination', 'activities', 'totalCost']);
      expect(res.body.activities.length).to.be.within(3, 7);
      for (const activity of res.body.activities) expect(activity).to.have.all.keys(ACTIVITY_KEYS);
      expect(res.headers['cache-control']).to.equal('public, max-age=300');
    });

    it('gives prices and the total as numbers in units, with at most 2 decimals', async () => {
      for (const { slug } of itineraries.all) {
        const { body, text } = await request(app).get(`/api/itineraries/${slug}`).expect(200);
        const cents = body.activities.map((a: { price: number }) => Math.round(a.price * 100));
        expect(Math.round(body.totalCost * 100)).to.equal(
          cents.reduce((x: number, y: number) => x + y, 0),
        );
        const numbers = text.match(/"(?:price|totalCost)":[^,}]+/g) ?? [];
        expect(numbers).to.have.length(body.activities.length + 1);
        for (const number of numbers)
          expect(number).to.match(/^"(price|totalCost)":\d+(\.\d{1,2})?$/);
      }
    });

    it('matches the display name or the slug, case-insensitively, percent-decoded', async () => {
      const asked = [
        'New%20York',
        'new%20york',
        'NEW%20YORK',
        'new-york',
        'New-York',
        'NEW-YORK',
        '%4Eew%20York',
      ];
      for (const name of asked) {
        const res = await request(app).get(`/api/itineraries/${name}`).expect(200);
        expect(res.body.destination, name).to.equal('New York');
      }
      for (const entry of itineraries.all) {
        const byName = await request(app).get(
          `/api/itineraries/${encodeURIComponent(entry.destination.name)}`,
        );
        expect(byName.body).to.deep.equal(entry.itinerary);
      }
    });

    it('answers 404 with the JSON error naming the destination asked for', async () => {
      const res = await request(app).get('/api/itineraries/Atlantis');
      expectErrorBody(res, 404);
      expect(res.body.error).to.equal('No itinerary for the destination "Atlantis"');
      for (const path of ['newyork', 'new-york-city', '%20', 'New%20York%20']) {
        expectErrorBody(await request(app).get(`/api/itineraries/${path}`), 404);
      }
    });

    it('keeps an apostrophe of the name asked for inside the JSON string', async () => {
      const res = await request(app).get(`/api/itineraries/${encodeURIComponent("O'Hare")}`);
      expectErrorBody(res, 404);
      expect(res.body.error).to.equal('No itinerary for the destination "O\'Hare"');
    });
  });

  describe('GET /api/itineraries/:destination/highlights', () => {
    it('gives only the highlighted activities', async () => {
      const res = await request(app)
        .get(`/api/itineraries/${withHighlights.slug}/highlights`)
        .expect(200);
      const expected = withHighlights.itinerary.activities.filter((a) => a.highlight);
      expect(res.body).to.deep.equal(expected).and.have.length.above(0);
      for (const activity of res.body) {
        expect(activity).to.have.all.keys(ACTIVITY_KEYS);
        expect(activity.highlight).to.equal(true);
      }
    });

    it('gives an empty array when no activity is a highlight', async () => {
      const noHighlight = (source: Itineraries) =>
        source.all.find((e) => e.itinerary.activities.every((a) => !a.highlight));
      let source = itineraries;
      for (let seed = 0; seed < 100 && !noHighlight(source); seed++) {
        source = planItineraries(seededDestinations, `no highlights ${seed}`);
      }
      const entry = noHighlight(source);
      expect(entry, 'some seed gives an itinerary without highlights').to.not.equal(undefined);
      const other = createApp({ itineraries: source }).callback();
      const res = await request(other)
        .get(`/api/itineraries/${entry?.slug}/highlights`)
        .expect(200);
      expect(res.body).to.deep.equal([]);
    });

    it('matches names as the itinerary route does, and answers 404 and 400 alike', async () => {
      const res = await request(app).get('/api/itineraries/NEW%20YORK/highlights').expect(200);
      expect(res.body).to.deep.equal(newYork.itinerary.activities.filter((a) => a.highlight));
      expectErrorBody(await request(app).get('/api/itineraries/atlantis/highlights'), 404);
      expectErrorBody(await request(app).get('/api/itineraries/%E0%A4%A/highlights'), 400);
      expectErrorBody(
        await request(app).get(`/api/itineraries/${'a'.repeat(101)}/highlights`),
        400,
      );
    });
  });

  describe('malformed destinations', () => {
    for (const suffix of ['', '/highlights']) {
      it(`answer 400 for percent-encoding that does not decode (${suffix || 'itinerary'})`, async () => {
        for (const raw of ['%E0%A4%A', '%', '%zz', 'New%2', '%C3%28', '%FF', 'a%E0%A4%A']) {
          const res = await request(app).get(`/api/itineraries/${raw}${suffix}`);
          expectErrorBody(res, 400);
          expect(res.body.details, raw).to.deep.equal([
            { field: 'destination', message: 'is not valid percent-encoding' },
          ]);
        }
      });
    }

    it('answer 400 for a name longer than 100 characters, counted once decoded', async () => {
      const res = await request(app).get(`/api/itineraries/${'a'.repeat(101)}`);
      expectErrorBody(res, 400);
      expect(res.body.details).to.deep.equal([
        { field: 'destination', message: 'must be at most 100 characters' },
      ]);
      expectErrorBody(await request(app).get(`/api/itineraries/${'%61'.repeat(101)}`), 400);
      expectErrorBody(await request(app).get(`/api/itineraries/${'a'.repeat(5000)}`), 400);
      // 100 characters is allowed: such a name is merely unknown.
      expectErrorBody(await request(app).get(`/api/itineraries/${'a'.repeat(100)}`), 404);
      expectErrorBody(await request(app).get(`/api/itineraries/${'%61'.repeat(100)}`), 404);
      expectErrorBody(await request(app).get(`/api/itineraries/${'%C3%A9'.repeat(100)}`), 404);
    });

    it('answer 400 for characters no destination name can contain', async () => {
      const raws = [
        '%3Cscript%3E',
        'a%3Eb',
        'New%2FYork',
        'a%3Bb',
        ';',
        '%00',
        'New%0AYork',
        '%7F',
        '%2541',
      ];
      for (const raw of [...raws, 'a_b', 'a+b', 'x%22y', 'a%5Cb']) {
        const res = await request(app).get(`/api/itineraries/${raw}`);
        expectErrorBody(res, 400);
        expect(res.body.details[0].field, raw).to.equal('destination');
      }
    });
  });

  describe('errors', () => {
    it('answers unknown API paths with the JSON 404 body', async () => {
      const paths = ['/api', '/api/nope', '/api/itinerary', '/api/itineraries/kyoto/nope'];
      for (const path of [...paths, '/api/itineraries/kyoto/highlights/x']) {
        expectErrorBody(await request(app).get(path), 404);
      }
    });
  });

  describe('seeds', () => {
    const serve = (seed: string) =>
      createApp({ itineraries: planItineraries(seededDestinations, seed) }).callback();
    const answers = async (server: ReturnType<typeof serve>) => {
      const texts = [(await request(server).get('/api/itineraries')).text];
      for (const { slug } of itineraries.all)
        texts.push((await request(server).get(`/api/itineraries/${slug}`)).text);
      return texts;
    };

    it('two apps with the same seed serve identical JSON', async () => {
      expect(await answers(serve(TEST_SEED))).to.deep.equal(await answers(app));
      expect(await answers(serve('replica'))).to.deep.equal(await answers(serve('replica')));
    });

    it('apps with different seeds serve different itineraries', async () => {
      const [a, b] = [await answers(serve('one')), await answers(serve('two'))];
      expect(a[0]).to.not.equal(b[0]);
      expect(a.filter((text, i) => text !== b[i]).length).to.be.above(itineraries.size / 2);
    });

    it('serves the same itineraries for the life of the app', async () => {
      const first = await answers(app);
      await request(app).get('/');
      expect(await answers(app)).to.deep.equal(first);
    });
  });

  describe('service', () => {
    it('GET /healthz reports ok and the number of destinations', async () => {
      await request(app)
        .get('/healthz')
        .expect(200, { status: 'ok', destinations: itineraries.size });
    });
  });
});
