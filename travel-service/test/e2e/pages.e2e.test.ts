import type { Server } from 'node:http';
import { expect } from 'chai';
import {
  type Browser,
  type BrowserContext,
  expectAccessible,
  launchBrowser,
  listen,
  type Page,
} from 'service-kit/testing';
import { seededItineraries as itineraries, seededApp, seededEntry } from '../helpers.js';

describe('pages in Chromium', function () {
  this.timeout(60_000);
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let server: Server;
  let url: string;

  before(async () => {
    ({ server, url } = await listen(seededApp()));
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    server?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext();
    page = await context.newPage();
  });
  afterEach(() => context.close());

  it('opens a destination as soon as it is chosen in the dropdown (JavaScript)', async () => {
    const { slug, destination, itinerary } = seededEntry('rio-de-janeiro');
    await page.goto(url);
    await page.getByLabel('Destination').selectOption({ label: destination.name });
    await page.waitForURL(`${url}/itineraries/${slug}`);
    expect(await page.locator('h1').textContent()).to.equal(destination.name);
    expect(await page.locator('.activity').count()).to.equal(itinerary.activities.length);
  });

  it('opens the chosen destination through the form without JavaScript', async () => {
    await context.close();
    context = await browser.newContext({ javaScriptEnabled: false });
    page = await context.newPage();
    const { slug, destination } = seededEntry('kyoto');
    await page.goto(url);
    await page.getByLabel('Destination').selectOption({ label: destination.name });
    expect(page.url(), 'no navigation before the button').to.equal(`${url}/`);
    await page.getByRole('button', { name: 'Show itinerary' }).click();
    await page.waitForURL(`${url}/itineraries/${slug}`);
    expect(await page.locator('h1').textContent()).to.equal(destination.name);
  });

  it('stays on the home page when the empty choice is submitted', async () => {
    await page.goto(url);
    const [redirect] = await Promise.all([
      page.waitForResponse((res) => res.url() === `${url}/itineraries?destination=`),
      page.getByRole('button', { name: 'Show itinerary' }).click(),
    ]);
    expect(redirect.status()).to.equal(302);
    await page.waitForURL(`${url}/`);
    expect(await page.locator('h1').textContent()).to.equal('Where to next?');
  });

  it('links the featured itinerary to its page', async () => {
    await page.goto(url);
    const name = await page.locator('#featured-title').textContent();
    const entry = itineraries.find(name ?? '');
    expect(entry, String(name)).to.not.equal(undefined);
    await page.getByRole('link', { name: `Open the ${name} itinerary page` }).click();
    await page.waitForURL(`${url}/itineraries/${entry?.slug}`);
    expect(await page.locator('h1').textContent()).to.equal(name);
  });

  it('loads the stylesheet and the script without breaking the content security policy', async () => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(url);
    const background = await page
      .locator('.site-header')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).to.not.equal('rgba(0, 0, 0, 0)');
    await page.goto(`${url}/itineraries/paris`);
    const widths = await page
      .locator('.budget__bar')
      .evaluateAll((bars) => bars.map((bar) => bar.getBoundingClientRect().width));
    expect(widths.length).to.be.above(2);
    for (const width of widths) expect(width).to.be.above(0);
    expect(errors).to.deep.equal([]);
  });

  const pages = ['/', '/itineraries/atlantis', '/itineraries/%3Cb%3E', '/nope', '/docs'];
  for (const path of pages) {
    it(`${path} has no accessibility violations`, async () => {
      await page.goto(url + path);
      await expectAccessible(page);
    });
  }

  it('renders the API reference from /openapi.json', async () => {
    const document = await (await fetch(`${url}/openapi.json`)).json();
    await page.goto(`${url}/docs`);
    const headings = await page.locator('.operation h2').allTextContents();
    for (const [path, methods] of Object.entries(document.paths as Record<string, object>)) {
      for (const method of Object.keys(methods)) {
        expect(headings).to.include(`${method.toUpperCase()} ${path}`);
      }
    }
    await page.locator('.schema summary').first().click();
    expect(await page.locator('.schema pre').first().isVisible()).to.equal(true);
  });

  it('has no accessibility violations on any itinerary page', async () => {
    for (const { slug } of itineraries.all) {
      await page.goto(`${url}/itineraries/${slug}`);
      await expectAccessible(page);
    }
  });

  it('is readable on a phone: nothing overflows sideways', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    for (const path of ['/', '/docs', ...itineraries.all.map((e) => `/itineraries/${e.slug}`)]) {
      await page.goto(url + path);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow, path).to.be.at.most(0);
    }
  });
});
