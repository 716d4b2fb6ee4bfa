import { expect } from 'chai';
import { openMongoStore } from '../../src/store/mongo.js';
import { mongoFactory } from '../stores.js';
import { describeStoreContract } from './contract.js';

if (mongoFactory) {
  describeStoreContract(mongoFactory);
} else {
  console.log('MongoDB contract suite SKIPPED: MONGODB_URI is not set');
  describe.skip('store contract: mongodb (SKIPPED: MONGODB_URI is not set)', () => {
    it('runs the store contract against MongoDB when MONGODB_URI is set');
  });
}

describe('MongoDB store without a server', () => {
  it('fails fast, rather than hanging, when no MongoDB answers', async () => {
    // Nothing listens on port 1 of the loopback: the connection is refused at once.
    let failure: unknown;
    await openMongoStore('mongodb://127.0.0.1:1/cds', { serverSelectionTimeoutMS: 300 }).catch(
      (error) => {
        failure = error;
      },
    );
    expect(String(failure)).to.match(/ECONNREFUSED|Server selection timed out|connect/i);
  });
});
