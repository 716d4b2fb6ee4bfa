import { expect } from 'chai';
import {
  type BrowserSession,
  checkPageAtWidths,
  expectApiReference,
  openBrowserSession,
  type Page,
} from 'service-kit/testing';
import { NO_DESTINATION } from '../../src/routes/pages.js';
import { seededItineraries as itineraries, seededApp, seededEntry } from '../helpers.js';

describe('pages in Chromium', function () {
  this.timeout(180_000);
  let session: BrowserSession;
  let page: Page;

  before(async () => {
    session = await openBrowserSession(seededApp());
  });
  after(() => session?.close());
  beforeEach(async () => {
    page = await session.newPage();
  });

  it('opens a destination as soon as it is chosen in the dropdown (JavaScript)', async () => {
    const { slug, destination, itinerary } = seededEntry('rio-de-janeiro');
    await page.goto(session.url);
    await page.getByLabel('Destination').selectOption({ label: destination.name });
    await page.waitForURL(`${session.url}/itineraries/${slug}`);
    expect(await page.locator('h1').textContent()).to.equal(destination.name);
    expect(await page.locator('.activity').count()).to.equal(itinerary.activities.length);
  });

  it('opens the chosen destination through the form without JavaScript', async () => {
    page = await session.newPage({ javaScriptEnabled: false });
    const { slug, destination } = seededEntry('kyoto');
    await page.goto(session.url);
    await page.getByLabel('Destination').selectOption({ label: destination.name });
    expect(page.url(), 'no navigation before the button').to.equal(`${session.url}/`);
    await page.getByRole('button', { name: 'Show itinerary' }).click();
    await page.waitForURL(`${session.url}/itineraries/${slug}`);
    expect(await page.locator('h1').textContent()).to.equal(destination.name);
  });

  for (const javaScriptEnabled of [false, true]) {
    it(`says what is missing when the picker is sent without a choice (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
      page = await session.newPage({ javaScriptEnabled });
      await page.goto(session.url);
      await page.getByRole('button', { name: 'Show itinerary' }).click();
      await page.waitForURL(`${session.url}/itineraries?destination=`);
      expect(await page.locator('h1').textContent()).to.equal('Where to next?');
      const alert = page.getByRole('alert');
      expect(await alert.textContent()).to.include(NO_DESTINATION);
      const picker = page.getByLabel('Destination');
      expect(await picker.getAttribute('aria-invalid')).to.equal('true');
      expect(await picker.evaluate((el) => el === document.activeElement)).to.equal(true);
      // Choosing one then works as usual.
      const { slug, destination } = seededEntry('kyoto');
      await picker.selectOption({ label: destination.name });
      if (!javaScriptEnabled) await page.getByRole('button', { name: 'Show itinerary' }).click();
      await page.waitForURL(`${session.url}/itineraries/${slug}`);
    });
  }

  it('links the featured itinerary to its page', async () => {
    await page.goto(session.url);
    const name = await page.locator('#featured-title').textContent();
    const entry = itineraries.find(name ?? '');
    expect(entry, String(name)).to.not.equal(undefined);
    await page.getByRole('link', { name: `Open the ${name} itinerary page` }).click();
    await page.waitForURL(`${session.url}/itineraries/${entry?.slug}`);
    expect(await page.locator('h1').textContent()).to.equal(name);
  });

  it('loads the stylesheet and the script without breaking the content security policy', async () => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(session.url);
    const background = await page
      .locator('.site-header')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).to.not.equal('rgba(0, 0, 0, 0)');
    await page.goto(`${session.url}/itineraries/paris`);
    const widths = await page
      .locator('.budget__bar')
      .evaluateAll((bars) => bars.map((bar) => bar.getBoundingClientRect().width));
    expect(widths.length).to.be.above(2);
    for (const width of widths) expect(width).to.be.above(0);
    expect(errors).to.deep.equal([]);
  });

  it('puts each activity price at the same place on every card, on a phone', async () => {
    await page.setViewportSize({ width: 390, height: 900 });
    for (const { slug } of itineraries.all) {
      await page.goto(`${session.url}/itineraries/${slug}`);
      const places = await page.locator('.activity').evaluateAll((cards) =>
        cards.map((card) => {
          const box = card.getBoundingClientRect();
          const price = (
            card.querySelector('.activity__price') as HTMLElement
          ).getBoundingClientRect();
          const name = (
            card.querySelector('.activity__name') as HTMLElement
          ).getBoundingClientRect();
          return {
            right: Math.round(box.right - price.right),
            top: Math.round(price.top - name.top),
          };
        }),
      );
      expect(new Set(places.map((p) => p.right)).size, slug).to.equal(1);
      for (const place of places) expect(place.top, slug).to.be.within(-4, 4);
    }
  });

  it('renders the API reference from /openapi.json', async () => {
    await expectApiReference(page, session.url);
  });

  const pages = [
    '/',
    '/itineraries?destination=',
    '/itineraries/atlantis',
    '/itineraries/%3Cb%3E',
    '/nope',
    '/docs',
  ];
  for (const path of pages) {
    it(`${path} fits 390 and 1280 px and has no accessibility violations`, async () => {
      await checkPageAtWidths(page, session.url + path);
    });
  }

  it('every itinerary page fits 390 and 1280 px and has no accessibility violations', async () => {
    for (const { slug } of itineraries.all) {
      await checkPageAtWidths(page, `${session.url}/itineraries/${slug}`);
    }
  });
});
