import { expect } from 'chai';
import { useBrowser } from '../../src/testing/index.js';
import { fixtureService } from '../fixture.js';

describe('the API reference (/docs) in Chromium', function () {
  // Chromium aborts a navigation (net::ERR_NETWORK_CHANGED) when a network interface comes or
  // goes, as Docker's do beside these tests in CI: a test that failed so gets one more run.
  this.retries(1);
  this.timeout(60_000);
  const browser = useBrowser(() => fixtureService().app);

  it('shows every operation, inline code as code and each $ref as a link to its schema', async () => {
    const page = await browser.newPage();
    await browser.expectApiReference(page);
    expect(await page.locator('#listItems p code').textContent()).to.equal('items');
    expect(await page.locator('#schema-Error h2').textContent()).to.equal('The error body (Error)');
  });

  // The services' stylesheets lay it out for a phone; the fixture has none.
  it('fits a laptop screen and has no accessibility violations', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${browser.url}/docs`);
    await browser.expectNoOverflow(page);
    await browser.expectAccessible(page);
  });

  it('gives each page a fresh context', async () => {
    const first = await browser.newPage();
    const second = await browser.newPage();
    expect(first.isClosed()).to.equal(true);
    expect(second.isClosed()).to.equal(false);
  });
});
