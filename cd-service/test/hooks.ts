import { conformance } from './helpers.js';
import { skipEmulatorDifferences } from './mongo-target.js';

export const mochaHooks = {
  /** On the MongoDB emulator, the tests listed in mongo-target.ts are pending, with the reason. */
  beforeAll(this: Mocha.Context) {
    const root = this.test?.parent;
    if (root) skipEmulatorDifferences(root);
  },
  /** Fails any test that received an API response its OpenAPI document does not describe. */
  afterEach() {
    const found = conformance.violations.splice(0);
    if (found.length > 0)
      throw new Error(`Responses that break the OpenAPI document:\n  ${found.join('\n  ')}`);
  },
};
