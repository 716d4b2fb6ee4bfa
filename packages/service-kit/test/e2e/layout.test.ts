import { expect } from 'chai';
import { useBrowser } from '../../src/testing/index.js';
import { brokenCodeWords, overflowProblems } from '../../src/testing/layout.js';
import { fixtureService } from '../fixture.js';

describe('overflow checks in Chromium', function () {
  // Chromium aborts a navigation (net::ERR_NETWORK_CHANGED) when a network interface comes or
  // goes, as Docker's do beside these tests in CI: a test that failed so gets one more run.
  this.retries(1);
  this.timeout(60_000);
  const browser = useBrowser(() => fixtureService().app);

  const problemsOf = async (html: string, width = 390) => {
    const page = await browser.newPage({ viewport: { width, height: 600 } });
    await page.setContent(`<!doctype html><html><body style="margin:0">${html}</body></html>`);
    return overflowProblems(page);
  };

  it('finds nothing on a page that fits', async () => {
    const problems = await problemsOf(
      '<div style="padding:16px"><p>Some text that wraps as it should.</p>' +
        '<a style="position:absolute;left:-999px" href="#">skip</a>' +
        '<pre style="overflow-x:auto;width:100px">a very long line that scrolls inside its box</pre></div>',
    );
    expect(problems).to.deep.equal([]);
  });

  it('finds a page wider than the window', async () => {
    const problems = await problemsOf('<div style="width:500px">wide</div>');
    expect(problems[0]).to.equal('the page is 500px wide in a 390px window');
  });

  it("finds an element in its container's padding", async () => {
    const problems = await problemsOf(
      '<div class="card" style="width:200px;padding:0 20px;box-sizing:border-box">' +
        '<span style="display:inline-block;width:180px" class="rating">9.6 / 10</span></div>',
    );
    expect(problems).to.have.length(1);
    expect(problems[0]).to.match(
      /^span\.rating "9\.6 \/ 10" sticks out of div\.card "9\.6 \/ 10" by 20\.0px on the right$/,
    );
  });

  it('finds text that does not wrap', async () => {
    const problems = await problemsOf(
      '<p style="width:100px">Averyveryveryveryverylongwordthatcannotwrap</p>',
    );
    expect(problems.join('\n')).to.match(/the text "Averyvery.*" sticks out of p/);
  });

  it('fails with the list of problems', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 600 } });
    await page.setContent('<p style="width:50px;white-space:nowrap">does not wrap at all</p>');
    let failure: unknown;
    await browser.expectNoOverflow(page).catch((error: unknown) => {
      failure = error;
    });
    expect((failure as Error).message).to.match(
      /^about:blank at 390px: 1 overflowing\n {2}the text "does not wrap at all" sticks out of p /,
    );
  });
});

describe('code words checks in Chromium', function () {
  // Chromium aborts a navigation (net::ERR_NETWORK_CHANGED) when a network interface comes or
  // goes, as Docker's do beside these tests in CI: a test that failed so gets one more run.
  this.retries(1);
  this.timeout(60_000);
  const browser = useBrowser(() => fixtureService().app);

  const brokenIn = async (html: string) => {
    const page = await browser.newPage({ viewport: { width: 390, height: 600 } });
    await page.setContent(`<!doctype html><html><body style="margin:0">${html}</body></html>`);
    return brokenCodeWords(page);
  };

  it('finds a header name broken at its hyphen', async () => {
    expect(await brokenIn('<p style="width:70px"><code>If-None-Match</code></p>')).to.deep.equal([
      'the code "If-None-Match" breaks across 2 lines',
    ]);
  });

  it('finds nothing when code wraps only between its words, or not at all', async () => {
    expect(
      await brokenIn(
        '<p style="width:110px"><code>Authorization: Bearer token</code></p>' +
          '<p style="width:70px"><code style="white-space:nowrap">If-None-Match</code></p>' +
          '<pre style="width:70px;white-space:pre-wrap"><code>If-None-Match</code></pre>',
      ),
    ).to.deep.equal([]);
  });
});
