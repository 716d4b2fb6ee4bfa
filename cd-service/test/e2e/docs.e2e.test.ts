import { expect } from 'chai';
import { useBrowser } from 'service-kit/testing';
import { createApp } from '../../src/app.js';
import { makeCdInput } from '../helpers.js';
import { type StoreHandle, sqliteFactory } from '../stores.js';

describe('the API reference (/docs) in Chromium', function () {
  // Chromium aborts a navigation (net::ERR_NETWORK_CHANGED) when a network interface comes or
  // goes, as Docker's do beside these tests in CI: a test that failed so gets one more run.
  this.retries(1);
  this.timeout(60_000);
  let handle: StoreHandle | undefined;
  const session = useBrowser(async () => {
    handle = await sqliteFactory.open();
    return createApp({ store: handle.store });
  });
  after(() => handle?.dispose());

  it('/docs fits 390 and 1280 px, axe clean', async () => {
    await session.checkPageAtWidths(await session.newPage(), '/docs');
  });

  it('renders the API reference', async () => {
    await session.expectApiReference(await session.newPage());
  });

  it('loads its stylesheet and icon without breaking the content security policy', async () => {
    const page = await session.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
    await page.goto(`${session.url}/docs`);
    const background = await page
      .locator('.site-header')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).to.not.equal('rgba(0, 0, 0, 0)');
    expect(problems).to.deep.equal([]);
  });

  it('has no accessibility violations with every schema opened', async () => {
    await fetch(`${session.url}/cds`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(makeCdInput()),
    });
    const page = await session.newPage();
    await page.goto(`${session.url}/docs`);
    for (const summary of await page.locator('.schema summary').all()) await summary.click();
    await session.expectAccessible(page);
  });
});
