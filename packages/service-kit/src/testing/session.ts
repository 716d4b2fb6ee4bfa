/// <reference types="mocha" preserve="true" />
import type { Server } from 'node:http';
import type Koa from 'koa';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { expectAccessible, launchBrowser, missingChromium } from './browser.js';
import { expectApiReference } from './docs.js';
import { listen } from './http.js';
import { checkPageAtWidths, expectNoOverflow, type PageCheckOptions } from './layout.js';

let saidChromiumIsMissing = false;

/**
 * For a mocha suite of browser tests: before it, the app (from `makeApp`) listens on a free
 * port and Chromium starts; after it, both close. Without Chromium the suite's tests are
 * skipped (pending), and one line says what to install, once per run, before any test runs
 * (suites are defined before the first test starts).
 */
export function useBrowser(makeApp: () => Koa | Promise<Koa>) {
  const missing = missingChromium();
  if (missing && !saidChromiumIsMissing) {
    saidChromiumIsMissing = true;
    console.log(`${missing}. Until then they are skipped (pending).`);
  }
  let server: Server | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let base = '';
  const closeContext = async () => {
    await context?.close();
    context = undefined;
  };
  before(async function () {
    if (missing) this.skip();
    ({ server, url: base } = await listen(await makeApp()));
    browser = await launchBrowser();
  });
  after(async () => {
    await closeContext();
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });
  return {
    /** The app's base URL, e.g. `http://127.0.0.1:40123`. */
    get url() {
      return base;
    },
    /** A page in a fresh context (no cookies, no cache); the previous context is closed. */
    async newPage(options?: BrowserContextOptions): Promise<Page> {
      await closeContext();
      if (!browser) throw new Error('useBrowser: no browser before the suite starts');
      context = await browser.newContext(options);
      return context.newPage();
    },
    /** Loads `path` at each width (390 and 1280 px): nothing overflows sideways, axe is clean. */
    checkPageAtWidths: (page: Page, path: string, options?: PageCheckOptions) =>
      checkPageAtWidths(page, base + path, options),
    /**
     * One test per path in the calling suite: the page (`page()`, the one the suite opened)
     * fits 390 and 1280 px and axe finds no violation.
     */
    itFitsEveryWidth(page: () => Page, paths: readonly string[]) {
      for (const path of paths) {
        it(`${path} fits 390 and 1280 px and has no accessibility violations`, () =>
          checkPageAtWidths(page(), base + path));
      }
    },
    /** /docs against /openapi.json: every operation shown, code as code, links that lead. */
    expectApiReference: (page: Page) => expectApiReference(page, base),
    /** No accessibility violation (axe) on the page as it is now. */
    expectAccessible,
    /** Nothing sticks out sideways on the page as it is now. */
    expectNoOverflow,
  };
}
