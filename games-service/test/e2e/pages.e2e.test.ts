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
import { seededCatalogue as catalogue, seededApp } from '../helpers.js';

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

  it('follows every navigation link', async () => {
    const targets = [
      ['Top rated', /\/top-rated$/, 'Top rated'],
      ['Hidden gems', /\/hidden-gems$/, 'Hidden gems'],
      ['Random game', /\/games\/\d+$/, null],
      ['Home', /\/$/, 'Discover something to play'],
    ] as const;
    await page.goto(url);
    for (const [name, path, heading] of targets) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
      await page.waitForURL(path);
      const h1 = await page.locator('h1').textContent();
      if (heading) expect(h1).to.equal(heading);
      else expect(catalogue.games.map((g) => g.title)).to.include(h1);
    }
  });

  it('opens a game from the home page', async () => {
    await page.goto(url);
    const cards = page.locator('.game-card h2 a');
    expect(await cards.count()).to.equal(9);
    const title = await cards.first().textContent();
    await cards.first().click();
    await page.waitForURL(/\/games\/\d+$/);
    expect(await page.locator('h1').textContent()).to.equal(title);
    expect(await page.locator('.recommendation-list li').count()).to.equal(3);
  });

  it('follows /random to a game page', async () => {
    await page.goto(`${url}/random`);
    expect(page.url()).to.match(/\/games\/\d+$/);
    expect(await page.locator('.game__facts').isVisible()).to.equal(true);
  });

  it('loads the stylesheet without breaking the content security policy', async () => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') violations.push(message.text());
    });
    await page.goto(url);
    const background = await page
      .locator('.site-header')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).to.not.equal('rgba(0, 0, 0, 0)');
    expect(violations).to.deep.equal([]);
  });

  for (const path of [
    '/',
    '/top-rated',
    '/hidden-gems',
    '/games/1',
    '/games/999999',
    '/nope',
    '/docs',
  ]) {
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

  it('is readable on a phone: nothing overflows sideways', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    for (const path of ['/', '/top-rated', '/games/1']) {
      await page.goto(url + path);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow, path).to.be.at.most(0);
    }
  });
});
