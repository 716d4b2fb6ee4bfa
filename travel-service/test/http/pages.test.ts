import { expect } from 'chai';
import { CACHE_CONTROL } from 'service-kit';
import { expectAsciiPages, expectCacheControl } from 'service-kit/testing';
import { createApp } from '../../src/app.js';
import { type Planned, planItineraries } from '../../src/itineraries/itineraries.js';
import { seededRandom } from '../../src/itineraries/random.js';
import { NO_DESTINATION } from '../../src/routes/pages.js';
import { makeDestination, makeTemplate } from '../fixtures.js';
import { seededItineraries as itineraries, request, seededApp, seededEntry } from '../helpers.js';

const money = (units: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(units);

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const itineraryLinks = (html: string) =>
  [...html.matchAll(/href="\/itineraries\/([^"]+)"/g)].map((m) => m[1]);

function expectCleanPage(html: string) {
  expect(html).to.match(/^<!DOCTYPE html>/);
  expect(html).to.not.match(/undefined|NaN|null|\[object |\bat .*\.ts:\d+/);
  expect(html).to.include('<header').and.include('<main').and.include('<footer');
  expect(html).to.include('href="/"').and.include('href="/api/itineraries"');
  expect(html, 'the footer names the API reference').to.include(
    '<a href="/docs">API reference</a>',
  );
  expect(html, 'no inline style, no script').to.not.match(/style=|<style|<script/);
}

describe('pages', () => {
  const app = seededApp().callback();

  describe('/', () => {
    it('offers every destination in a dropdown inside a GET form', async () => {
      const res = await request(app).get('/').expect(200).expect('Content-Type', /html/);
      expectCleanPage(res.text);
      expect(res.text).to.include('<form class="picker" method="get" action="/itineraries">');
      expect(res.text).to.include('<label for="destination">');
      const select =
        /<select id="destination" name="destination"[^>]*>([\s\S]*?)<\/select>/.exec(
          res.text,
        )?.[1] ?? '';
      const options = [...select.matchAll(/<option value="([^"]*)">([^<]*)<\/option>/g)].map(
        (m) => [m[1], m[2]],
      );
      expect(options).to.deep.equal([
        ['', 'Choose a destination&#x2026;'],
        ...itineraries.all.map((e) => [e.slug, e.destination.name]),
      ]);
      expect(res.text).to.match(/<button type="submit">/);
      // Only the button sends the form (WCAG 3.2.2 On Input): no script acts on a choice.
      expect(res.text).to.not.include('<script');
    });

    it('shows a featured itinerary in full, with a link to its page', async () => {
      const app = seededApp({ random: () => 0 }).callback();
      const res = await request(app).get('/').expect(200);
      expectCleanPage(res.text);
      const featured = itineraries.all[0] as Planned;
      const section = res.text.slice(res.text.indexOf('id="featured-title"'));
      expect(section).to.include(`>${featured.destination.name}</h2>`);
      for (const activity of featured.itinerary.activities) {
        expect(section)
          .to.include(escapeHtml(activity.name))
          .and.include(escapeHtml(activity.description));
        expect(section).to.include(money(activity.price));
      }
      expect(section).to.include(
        `Estimated total budget: <strong>${money(featured.itinerary.totalCost)}</strong>`,
      );
      expect(itineraryLinks(section)).to.deep.equal([featured.slug]);
    });

    it('picks the featured itinerary at random on every load, and is never cached', async () => {
      const res = await request(app).get('/');
      expect(res.headers['cache-control']).to.equal('no-store');
      const featured = new Set<string>();
      for (let i = 0; i < 30; i++) {
        const html = (await request(app).get('/')).text;
        featured.add(/id="featured-title">([^<]+)</.exec(html)?.[1] ?? '');
      }
      expect(featured.size).to.be.greaterThan(2);
      for (const name of featured) expect(itineraries.find(name), name).to.not.equal(undefined);
    });
  });

  describe('/itineraries?destination= (the form of the home page)', () => {
    it('redirects a chosen destination to its page, spaces around it ignored', async () => {
      for (const asked of [
        'kyoto',
        '%20kyoto%20',
        '+kyoto',
        'rio-de-janeiro',
        'Rio%20de%20Janeiro',
        'RIO+DE+JANEIRO',
        '%20%20Rio%20de%20Janeiro%20',
      ]) {
        const res = await request(app).get(`/itineraries?destination=${asked}`).expect(302);
        const slug = asked.includes('kyoto') ? 'kyoto' : 'rio-de-janeiro';
        expect(res.headers.location, asked).to.equal(`/itineraries/${slug}`);
      }
    });

    it('shows the home page again, with a message at the picker, when sent without a choice', async () => {
      for (const query of ['', '?destination=', '?destination=+', '?other=1']) {
        const res = await request(app)
          .get(`/itineraries${query}`)
          .expect(400)
          .expect('Content-Type', /html/);
        expectCleanPage(res.text);
        expect(res.text, query).to.include('<h1>Where to next?</h1>');
        expect(res.text).to.include(`role="alert">`).and.include(escapeHtml(NO_DESTINATION));
        expect(res.text).to.match(
          /<select id="destination"[^>]* aria-invalid="true" aria-describedby="destination-problem" autofocus>/,
        );
        expect(res.headers['cache-control']).to.equal('no-store');
      }
      const home = await request(app).get('/').expect(200);
      expect(home.text).to.not.include('role="alert"').and.not.include('aria-invalid');
    });

    it('answers an unknown destination with the 404 page and a bad one with the 400 page', async () => {
      const missing = await request(app)
        .get('/itineraries?destination=atlantis')
        .expect(404)
        .expect('Content-Type', /html/);
      expectCleanPage(missing.text);
      expect(missing.text).to.include('We have no itinerary for atlantis.');
      const padded = await request(app).get('/itineraries?destination=%20atlantis%20').expect(404);
      expect(padded.text).to.include('We have no itinerary for atlantis.');
      for (const query of [
        'destination=%3Cb%3E',
        'destination=kyoto&destination=lisbon',
        `destination=${'a'.repeat(101)}`,
      ]) {
        const res = await request(app)
          .get(`/itineraries?${query}`)
          .expect(400)
          .expect('Content-Type', /html/);
        expectCleanPage(res.text);
        expect(res.text).to.not.include('<b>');
      }
    });
  });

  describe('/itineraries/:destination', () => {
    it('shows every activity with its price, the highlights marked, and the total', async () => {
      for (const { slug, destination, itinerary } of itineraries.all) {
        const res = await request(app)
          .get(`/itineraries/${slug}`)
          .expect(200)
          .expect('Content-Type', /html/);
        expectCleanPage(res.text);
        expect(res.text).to.include(`<h1>${destination.name}</h1>`);
        expect(res.text)
          .to.include(escapeHtml(destination.country))
          .and.include(escapeHtml(destination.summary));
        const items = res.text.match(/<li class="activity[^"]*">[\s\S]*?<\/li>/g) ?? [];
        expect(items).to.have.length(itinerary.activities.length);
        itinerary.activities.forEach((activity, i) => {
          const item = items[i] ?? '';
          expect(item)
            .to.include(escapeHtml(activity.name))
            .and.include(escapeHtml(activity.description));
          expect(item).to.include(money(activity.price));
          expect(item.includes('Highlight'), activity.name).to.equal(activity.highlight);
          expect(item.includes('activity--highlight'), activity.name).to.equal(activity.highlight);
        });
        expect(res.text).to.include(
          `Estimated total budget: <strong>${money(itinerary.totalCost)}</strong>`,
        );
        expect(res.headers['cache-control']).to.equal('public, max-age=300');
      }
    });

    it('draws a bar per activity sized by its share of the budget', async () => {
      const { slug, itinerary } = seededEntry('paris');
      const res = await request(app).get(`/itineraries/${slug}`).expect(200);
      const rows = res.text.match(/<li class="budget__row">[\s\S]*?<\/li>/g) ?? [];
      expect(rows).to.have.length(itinerary.activities.length);
      const total = Math.round(itinerary.totalCost * 100);
      itinerary.activities.forEach((activity, i) => {
        const share = Math.round(activity.price * 100) / total;
        const row = rows[i] ?? '';
        expect(row)
          .to.include(escapeHtml(activity.name))
          .and.include(`${money(activity.price)} (`);
        // The bar's width is the share itself (at least 1% of the track for a share above 0).
        const bar = /<rect class="budget__bar( budget__bar--highlight)?" width="([\d.]+)%"/.exec(
          row,
        );
        expect(bar, activity.name).to.not.equal(null);
        expect(Number(bar?.[2]), activity.name).to.be.closeTo(Math.max(1, share * 100), 0.005);
        expect(Boolean(bar?.[1]), activity.name).to.equal(activity.highlight);
      });
    });

    it('shows whole percentages of the budget that add up to exactly 100', async () => {
      // Under the test seed, rounding each share alone gives 99 for Cape Town, 101 for Cusco.
      for (const { slug, itinerary } of itineraries.all) {
        const res = await request(app).get(`/itineraries/${slug}`).expect(200);
        const percents = [...res.text.matchAll(/class="budget__amount">[^<]* \((\d+)%\)</g)].map(
          (m) => Number(m[1]),
        );
        expect(percents, slug).to.have.length(itinerary.activities.length);
        const sum = percents.reduce((a, b) => a + b, 0);
        expect(sum, slug).to.equal(100);
        const total = Math.round(itinerary.totalCost * 100);
        itinerary.activities.forEach((activity, i) => {
          const exact = (Math.round(activity.price * 100) * 100) / total;
          expect(percents[i], activity.name).to.be.oneOf([Math.floor(exact), Math.ceil(exact)]);
        });
      }
    });

    it('matches the display name too, case-insensitively', async () => {
      for (const asked of ['New%20York', 'NEW-YORK', 'new%20york']) {
        const res = await request(app).get(`/itineraries/${asked}`).expect(200);
        expect(res.text).to.include('<h1>New York</h1>');
      }
    });

    it('answers an unknown destination with the 404 page in the layout', async () => {
      for (const path of [
        '/itineraries/atlantis',
        '/itineraries/Atl%C3%A0ntis',
        '/nope',
        '/itineraries/kyoto/extra',
      ]) {
        const res = await request(app).get(path).expect(404).expect('Content-Type', /html/);
        expectCleanPage(res.text);
        expect(res.text).to.include('Page not found');
        expect(res.headers['cache-control']).to.equal('no-store');
      }
      const named = await request(app).get('/itineraries/Atl%C3%A0ntis');
      expect(named.text).to.include('We have no itinerary for Atlàntis.');
    });

    it('answers a malformed destination with the 400 page in the layout', async () => {
      for (const raw of [
        '%E0%A4%A',
        `${'a'.repeat(101)}`,
        '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
        'a%3Bb',
        '%00',
      ]) {
        const res = await request(app)
          .get(`/itineraries/${raw}`)
          .expect(400)
          .expect('Content-Type', /html/);
        expectCleanPage(res.text);
        expect(res.text).to.not.include('<script>alert');
      }
    });
  });

  it('escapes markup in the data', async () => {
    const evil = makeDestination({
      name: 'Evil Town',
      country: 'Ex<b>land',
      summary: '"quoted" & <i>italic</i>',
      activities: Array.from({ length: 10 }, (_, i) =>
        makeTemplate({
          name: `<script>alert(${i})</script>`,
          description: '<img src=x onerror=alert(1)>',
        }),
      ),
    });
    const evilApp = createApp({
      itineraries: planItineraries([evil], 'x'),
      random: seededRandom(1),
    }).callback();
    for (const path of ['/', '/itineraries/evil-town']) {
      const res = await request(evilApp).get(path).expect(200);
      expect(res.text)
        .to.not.include('<script>alert')
        .and.not.include('<b>')
        .and.not.include('<i>')
        .and.not.include('<img');
      expect(res.text)
        .to.include('&lt;script&gt;alert(')
        .and.include('&quot;quoted&quot; &amp; &lt;i&gt;');
    }
  });

  it('is ASCII on every page (given ASCII data), which V8 and Node hash and write on their fast paths', async () => {
    // Kyoto featured on the home page: the seed's data for it, this test's input, is ASCII.
    const kyoto = itineraries.all.indexOf(seededEntry('Kyoto'));
    const app = seededApp({ random: () => (kyoto + 0.5) / itineraries.size }).callback();
    await expectAsciiPages(request(app), [
      ['/', 200],
      ['/itineraries?destination=', 400],
      ['/itineraries/kyoto', 200],
      ['/no-such-page', 404],
      ['/docs', 200],
    ]);
  });

  it('links its stylesheet under a versioned URL, cached for good', async () => {
    const href = /(\/assets\/styles\.css\?v=[\w-]+)"/.exec((await request(app).get('/')).text);
    await expectCacheControl(request(app), [[String(href?.[1]), CACHE_CONTROL.immutable]]);
  });
});
