import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { planItineraries, toSummary } from '../../src/itineraries/itineraries.js';
import { seededRandom } from '../../src/itineraries/random.js';
import {
  DESTINATIONS_PAGE_SIZE,
  NO_DESTINATION_TYPED,
  PICKER_MAX_DESTINATIONS,
} from '../../src/routes/pages.js';
import { makeDestination } from '../fixtures.js';
import { request, seededDestinations } from '../helpers.js';

const itineraryLinks = (html: string) =>
  [...html.matchAll(/<li><a href="\/itineraries\/([^"]+)">/g)].map((m) => m[1]);

describe('the API list, written as it is sent', () => {
  // More than the 1,000 a list may hold to be answered whole.
  const destinations = Array.from({ length: 1001 }, (_, i) =>
    makeDestination({ name: `Town ${String(i + 1).padStart(4, '0')}` }, 3),
  );
  const appOf = (fileVersion: string, seed = 'stream') =>
    createApp({ itineraries: planItineraries(destinations, seed, fileVersion) }).callback();
  const app = appOf('file-1');

  it("answers a list of at most 1,000 destinations whole (the seed's)", async () => {
    const seeded = createApp({ itineraries: planItineraries(seededDestinations, 'stream') });
    const res = await request(seeded.callback())
      .get('/api/itineraries')
      .set('Accept-Encoding', 'identity');
    expect(Number(res.headers['content-length'])).to.equal(Buffer.byteLength(res.text));
  });

  it('answers the very bytes of the whole list, under a weak tag of the plans', async () => {
    const res = await request(app).get('/api/itineraries').set('Accept-Encoding', 'identity');
    expect(res.status).to.equal(200);
    const plans = planItineraries(destinations, 'stream', 'file-1');
    expect(res.text).to.equal(JSON.stringify(plans.all.map((e) => toSummary(e.itinerary))));
    expect(res.headers['content-length']).to.equal(undefined);
    expect(res.headers['content-type']).to.equal('application/json; charset=utf-8');
    expect(res.headers['cache-control']).to.equal('public, max-age=300');
    expect(res.headers.etag).to.match(/^W\/"[\w-]{16}\.[\w-]{16}"$/);
    await request(app)
      .get('/api/itineraries')
      .set('If-None-Match', res.headers.etag ?? '')
      .expect(304);
  });

  it('tags by the file and the seed: the same for two apps of both, another for either', async () => {
    const tag = async (server: ReturnType<typeof appOf>) =>
      (await request(server).get('/api/itineraries')).headers.etag;
    const first = await tag(app);
    expect(await tag(appOf('file-1'))).to.equal(first);
    expect(await tag(appOf('file-2'))).to.not.equal(first);
    expect(await tag(appOf('file-1', 'other seed'))).to.not.equal(first);
  });

  it('gives HEAD the headers of GET, compressed or not', async () => {
    for (const encoding of ['identity', 'gzip', 'br']) {
      const got = await request(app).get('/api/itineraries').set('Accept-Encoding', encoding);
      const head = await request(app).head('/api/itineraries').set('Accept-Encoding', encoding);
      for (const name of ['content-encoding', 'content-type', 'etag', 'cache-control', 'vary']) {
        expect(head.headers[name], `${encoding}: ${name}`).to.equal(got.headers[name]);
      }
      expect(head.headers['content-length']).to.equal(undefined);
    }
  });
});

describe('more destinations than the picker lists', () => {
  // Named so that their order by name is their number's: "Place 0001", "Place 0002"...
  const COUNT = PICKER_MAX_DESTINATIONS + DESTINATIONS_PAGE_SIZE + 20;
  const destinations = Array.from({ length: COUNT }, (_, i) =>
    makeDestination({ name: `Place ${String(i + 1).padStart(4, '0')}` }),
  );
  const itineraries = planItineraries(destinations, 'many');
  const app = createApp({ itineraries, random: seededRandom('home') }).callback();
  const slugs = (from: number, to: number) => itineraries.all.slice(from, to).map((e) => e.slug);
  const pages = Math.ceil(COUNT / DESTINATIONS_PAGE_SIZE);

  it('makes the picker a text field of the same name, in the same form, with a link to browse', async () => {
    const res = await request(app).get('/').expect(200);
    expect(res.text).to.include('<form class="picker" method="get" action="/itineraries">');
    expect(res.text).to.not.include('<select');
    expect(res.text).to.match(
      /<input id="destination" type="text" name="destination"[^>]*aria-describedby="destination-hint"/,
    );
    expect(res.text).to.include(`<a href="/destinations">browse all ${COUNT} destinations</a>`);
    expect(res.text).to.not.include('Place 0002');
    const sent = await request(app).get('/itineraries?destination=place%200002').expect(302);
    expect(sent.headers.location).to.equal('/itineraries/place-0002');
  });

  it('asks again, at the text field, when the form is sent empty', async () => {
    const res = await request(app).get('/itineraries?destination=').expect(400);
    expect(res.text).to.include(NO_DESTINATION_TYPED);
    expect(res.text).to.match(
      /<input id="destination"[^>]*aria-invalid="true" aria-describedby="destination-problem" autofocus/,
    );
  });

  it('lists the destinations by name, a page at a time, with links both ways', async () => {
    const first = await request(app).get('/destinations').expect(200);
    expect(itineraryLinks(first.text)).to.deep.equal(slugs(0, DESTINATIONS_PAGE_SIZE));
    expect(first.text).to.include('<title>Destinations');
    expect(first.text).to.include('href="/destinations?page=2" rel="next"');
    expect(first.text).to.not.include('rel="prev"');
    expect(first.headers['cache-control']).to.equal('public, max-age=300');

    const second = await request(app).get('/destinations?page=2').expect(200);
    const size = DESTINATIONS_PAGE_SIZE;
    expect(itineraryLinks(second.text)).to.deep.equal(slugs(size, 2 * size));
    expect(second.text).to.include('<h1>Destinations, page 2</h1>');
    expect(second.text).to.match(/<title>Destinations, page 2/);
    expect(second.text).to.include(`Destinations ${size + 1} to ${2 * size} of ${COUNT}`);
    expect(second.text).to.include('href="/destinations" rel="prev"');
    expect(second.text).to.include('href="/destinations?page=3" rel="next"');

    const last = await request(app).get(`/destinations?page=${pages}`).expect(200);
    expect(itineraryLinks(last.text)).to.deep.equal(slugs((pages - 1) * size, COUNT));
    expect(last.text).to.not.include('rel="next"');
  });

  it('answers a page past the last with the 404 page, a bad page number with 400', async () => {
    const past = await request(app)
      .get(`/destinations?page=${pages + 1}`)
      .expect(404);
    expect(past.text).to.include(
      `There is no page ${pages + 1} of destinations: they fill ${pages} pages.`,
    );
    for (const page of ['0', 'two'])
      await request(app).get(`/destinations?page=${page}`).expect(400);
  });
});
