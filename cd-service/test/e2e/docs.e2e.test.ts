import type { Server } from 'node:http';
import { expect } from 'chai';
import {
  type Browser,
  type BrowserContext,
  checkPageAtWidths,
  expectAccessible,
  expectApiReference,
  launchBrowser,
  listen,
  type Page,
} from 'service-kit/testing';
import { createApp } from '../../src/app.js';
import { makeCdInput } from '../helpers.js';
import { type StoreHandle, sqliteFactory } from '../stores.js';

describe('the API reference (/docs) in Chromium', function () {
  this.timeout(60_000);
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let handle: StoreHandle;
  let server: Server;
  let url: string;

  before(async () => {
    handle = await sqliteFactory.open();
    ({ server, url } = await listen(createApp({ store: handle.store })));
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    server?.closeAllConnections();
    server?.close();
    await handle?.dispose();
  });
  beforeEach(async () => {
    context = await browser.newContext();
    page = await context.newPage();
  });
  afterEach(() => context.close());

  it('/docs fits 390 and 1280 px, axe clean', () => checkPageAtWidths(page, `${url}/docs`));

  it('renders the API reference', () => expectApiReference(page, url));

  it('renders every operation of /openapi.json', async () => {
    const document = await (await fetch(`${url}/openapi.json`)).json();
    await page.goto(`${url}/docs`);
    const headings = await page.locator('.operation h2').allTextContents();
    const links = await page.getByRole('navigation', { name: 'Operations' }).getByRole('link');
    const operations: string[] = [];
    for (const [path, methods] of Object.entries(
      document.paths as Record<string, Record<string, { operationId: string }>>,
    )) {
      for (const [method, op] of Object.entries(methods)) {
        operations.push(`${method.toUpperCase()} ${path}`);
        expect(headings).to.include(`${method.toUpperCase()} ${path}`);
        expect(await page.locator(`section#${op.operationId}`).count(), op.operationId).to.equal(1);
      }
    }
    expect(operations).to.have.length(7);
    expect(await links.count()).to.equal(operations.length);
    await page.locator('.schema summary').first().click();
    expect(await page.locator('.schema pre').first().isVisible()).to.equal(true);
  });

  it('loads its stylesheet and icon without breaking the content security policy', async () => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
    await page.goto(`${url}/docs`);
    const background = await page
      .locator('.site-header')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).to.not.equal('rgba(0, 0, 0, 0)');
    expect(problems).to.deep.equal([]);
  });

  it('has no accessibility violations', async () => {
    await fetch(`${url}/cds`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(makeCdInput()),
    });
    await page.goto(`${url}/docs`);
    await expectAccessible(page);
    // Opened schemas too.
    for (const summary of await page.locator('.schema summary').all()) await summary.click();
    await expectAccessible(page);
  });

  it('is readable on a phone: nothing overflows sideways', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${url}/docs`);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).to.be.at.most(0);
  });
});
