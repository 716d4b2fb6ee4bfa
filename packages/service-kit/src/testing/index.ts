export type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
export { expectAccessible, launchBrowser } from './browser.js';
export { Conformance } from './conformance.js';
export { expectApiReference } from './docs.js';
export {
  captureLogger,
  expectErrorBody,
  expectRevalidates,
  type LogLine,
  listen,
} from './http.js';
export {
  checkPageAtWidths,
  expectNoOverflow,
  overflowProblems,
  type PageCheckOptions,
  VIEWPORT_WIDTHS,
} from './layout.js';
export { expectDocumentedGetsAndHeads, expectValidOpenApiDocument } from './openapi.js';
export { type BrowserSession, openBrowserSession } from './session.js';
