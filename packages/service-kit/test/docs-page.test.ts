import { expect } from 'chai';
import {
  type BrowserSession,
  expectAccessible,
  expectApiReference,
  expectNoOverflow,
  openBrowserSession,
} from '../src/testing/index.js';
import { fixtureService } from './fixture.js';

describe('the API reference (/docs) in Chromium', function () {
  this.timeout(60_000);
  let session: BrowserSession;
  before(async () => {
    session = await openBrowserSession(fixtureService().app);
  });
  after(() => session?.close());

  it('shows every operation, inline code as code and each $ref as a link to its schema', async () => {
    const page = await session.newPage();
    await expectApiReference(page, session.url);
    expect(await page.locator('#listItems p code').textContent()).to.equal('items');
    expect(await page.locator('#schema-Error h2').textContent()).to.equal('The error body (Error)');
  });

  // The services' stylesheets lay it out for a phone; the fixture has none.
  it('fits a laptop screen and has no accessibility violations', async () => {
    const page = await session.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${session.url}/docs`);
    await expectNoOverflow(page);
    await expectAccessible(page);
  });

  it('gives each page a fresh context', async () => {
    const first = await session.newPage();
    const second = await session.newPage();
    expect(first.isClosed()).to.equal(true);
    expect(second.isClosed()).to.equal(false);
  });
});
