export type { Browser, BrowserContext, Page } from 'playwright-core';
export { expectAccessible, launchBrowser } from './browser.js';
export { Conformance } from './conformance.js';
export { captureLogger, expectErrorBody, type LogLine, listen } from './http.js';
