import type { Server } from 'node:http';
import type Koa from 'koa';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { listen } from './http.js';

/** An app listening on a free port and a browser to look at it, for a suite of browser tests. */
export interface BrowserSession {
  /** The app's base URL, e.g. `http://127.0.0.1:40123`. */
  url: string;
  browser: Browser;
  /** A page in a fresh context (no cookies, no cache); the previous context is closed. */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /** Closes the browser and the server. */
  close(): Promise<void>;
}

/** Starts the app and Chromium; call `close()` when the suite is done. */
export async function openBrowserSession(app: Koa): Promise<BrowserSession> {
  const { url, server } = await listen(app);
  let browser: Browser;
  try {
    browser = await launchBrowser();
  } catch (error) {
    server.close();
    throw error;
  }
  let context: BrowserContext | undefined;
  const closeContext = async () => {
    await context?.close();
    context = undefined;
  };
  return {
    url,
    browser,
    async newPage(options) {
      await closeContext();
      context = await browser.newContext(options);
      return context.newPage();
    },
    async close() {
      await closeContext();
      await browser.close();
      await closeServer(server);
    },
  };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
