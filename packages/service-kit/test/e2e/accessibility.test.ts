import { expect } from 'chai';
import { useBrowser } from '../../src/testing/index.js';
import { fixtureService } from '../fixture.js';

describe('accessibility checks in Chromium', function () {
  // Chromium aborts a navigation (net::ERR_NETWORK_CHANGED) when a network interface comes or
  // goes, as Docker's do beside these tests in CI: a test that failed so gets one more run.
  this.retries(1);
  this.timeout(60_000);
  const browser = useBrowser(() => fixtureService().app);

  const failureOn = async (body: string) => {
    const page = await browser.newPage();
    await page.setContent(
      `<!doctype html><html lang="en"><head><title>Check</title></head><body><main>${body}</main></body></html>`,
    );
    return browser.expectAccessible(page).then(
      () => undefined,
      (error: Error) => error.message,
    );
  };

  it('passes a page without violations', async () => {
    expect(await failureOn('<h1>Fine</h1><img src="data:," alt="A square">')).to.equal(undefined);
  });

  it('fails on a violation in the page, naming the rule and the element', async () => {
    const failure = await failureOn('<h1>Cover</h1><img id="cover" src="data:,">');
    expect(failure).to.match(/1 accessibility violations\n {2}image-alt: .*\(#cover\)/);
  });

  it('fails on a page with a frame, which it does not check', async () => {
    const failure = await failureOn(
      '<h1>Framed</h1><iframe title="Inner" srcdoc="<p>Hi</p>"></iframe>',
    );
    expect(failure).to.match(/the page has 1 frame\(s\), which expectAccessible does not check$/);
  });
});
