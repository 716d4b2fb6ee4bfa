import { expect } from 'chai';
import { useBrowser } from '../../src/testing/index.js';
import { fixtureService } from '../fixture.js';

describe('accessibility checks in Chromium', function () {
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

  it('fails on a violation inside a frame of the page, of its origin or another', async () => {
    const inner =
      '<!doctype html><html lang=en><title>Inner</title><body><img id=inner src=data:,></body></html>';
    const sameOrigin = `<iframe title="Inner" srcdoc="${inner}"></iframe>`;
    // A data: URL is a page of an origin of its own.
    const otherOrigin = `<iframe title="Inner" src="data:text/html,${encodeURIComponent(inner)}"></iframe>`;
    for (const frame of [sameOrigin, otherOrigin]) {
      expect(await failureOn(`<h1>Framed</h1>${frame}`), frame).to.match(/image-alt: .*#inner/);
    }
  });
});
