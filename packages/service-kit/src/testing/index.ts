// What a service's tests use from the kit (see README.md: one line each).
export {
  expectAsciiPages,
  expectCacheControl,
  expectRevalidated,
} from './answers.js';
export { Conformance } from './conformance.js';
export { captureLogger, expectErrorBody, expectManyUnknownParameters } from './http.js';
export { expectDocumentedApi } from './openapi.js';
export { useBrowser } from './session.js';
export { expectKitWired } from './wiring.js';
