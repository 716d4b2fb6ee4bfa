import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import type { CdStore } from '../../src/store/store.js';
import { folderEachTest } from '../fixtures.js';
import { captureLogger, request } from '../helpers.js';

describe('HTTP: the probes (the kit wired to the store)', () => {
  const folder = folderEachTest();
  let store: CdStore;
  beforeEach(() => {
    store = folder.openStore();
  });

  it('/livez and /readyz answer 200 while the store answers', async () => {
    const app = createApp({ store }).callback();
    expect((await request(app).get('/livez').expect(200)).body).to.deep.equal({ status: 'ok' });
    const ready = await request(app).get('/readyz').expect(200);
    expect(ready.body).to.deep.equal({ status: 'ok' });
    expect(ready.headers['cache-control']).to.equal('no-store');
  });

  it('/readyz answers 503 unavailable when the store does not answer; /livez stays 200', async () => {
    const failing: CdStore = { ...store, ping: () => Promise.reject(new Error('no answer')) };
    const app = createApp({ store: failing, logger: captureLogger() }).callback();
    expect((await request(app).get('/readyz').expect(503)).body).to.deep.equal({
      status: 'unavailable',
    });
    await request(app).get('/livez').expect(200);
  });
});
