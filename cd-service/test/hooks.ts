import { conformance } from './helpers.js';

/** Fails any test that received an API response its OpenAPI document does not describe. */
export const mochaHooks = {
  afterEach() {
    const found = conformance.violations.splice(0);
    if (found.length > 0)
      throw new Error(`Responses that break the OpenAPI document:\n  ${found.join('\n  ')}`);
  },
};
