import { conformance } from './helpers.js';

export const mochaHooks = {
  /** Fails any test that received an API response its OpenAPI document does not describe. */
  afterEach() {
    const found = conformance.violations.splice(0);
    if (found.length > 0)
      throw new Error(`Responses that break the OpenAPI document:\n  ${found.join('\n  ')}`);
  },
};
