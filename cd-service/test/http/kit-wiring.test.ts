import { expectKitWired } from 'service-kit/testing';
import { createApp } from '../../src/app.js';
import { makeCdInput, request } from '../helpers.js';
import { type StoreHandle, sqliteFactory } from '../stores.js';

describe('the kit', () => {
  let handle: StoreHandle;
  beforeEach(async () => {
    handle = await sqliteFactory.open();
  });
  afterEach(() => handle.dispose());

  it('is wired: request id, request log, metrics, compression, and no CORS by default', async () => {
    const app = (options: object) => createApp({ store: handle.store, ...options });
    // Enough CDs for a list worth compressing.
    for (let i = 0; i < 20; i++) {
      await request(app({}).callback()).post('/cds').send(makeCdInput()).expect(201);
    }
    await expectKitWired({ service: 'cd-service', app, path: '/cds', route: '/cds' });
  });
});
