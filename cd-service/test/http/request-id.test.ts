import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import type { CdStore } from '../../src/store/store.js';
import { captureLogger, expectErrorBody, request } from '../helpers.js';
import { describeEachStore, type StoreHandle } from '../stores.js';

describeEachStore('X-Request-Id', (factory) => {
  let handle: StoreHandle;
  let store: CdStore;

  beforeEach(async () => {
    handle = await factory.open();
    store = handle.store;
  });
  afterEach(() => handle.dispose());

  it('echoes a valid id, replaces an invalid one, makes one when absent', async () => {
    const app = createApp({ store }).callback();
    const given = await request(app).get('/cds').set('X-Request-Id', 'abc-123.x');
    expect(given.headers['x-request-id']).to.equal('abc-123.x');
    for (const invalid of ['no spaces <allowed>', 'x'.repeat(129)]) {
      const res = await request(app).get('/cds').set('X-Request-Id', invalid);
      expect(res.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    }
    const absent = await request(app).get('/nope');
    expect(absent.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    const other = await request(app).get('/nope');
    expect(other.headers['x-request-id']).to.not.equal(absent.headers['x-request-id']);
  });

  it('writes the id and the service name in the request log line and in the log of a failure', async () => {
    const logger = captureLogger('cd-service');
    const logged = createApp({ store, logger, logRequests: true }).callback();
    await request(logged).get('/cds').set('X-Request-Id', 'trace-me').expect(200);
    expect(logger.lines).to.have.length(1);
    expect(logger.lines[0]).to.include({
      service: 'cd-service',
      level: 'info',
      message: 'request',
      method: 'GET',
      path: '/cds',
      status: 200,
      requestId: 'trace-me',
    });
    expect(logger.lines[0]?.ms).to.be.a('number');

    const broken: CdStore = { ...store, list: () => Promise.reject(new Error('boom')) };
    const failing = createApp({ store: broken, logger }).callback();
    const res = await request(failing).get('/cds').set('X-Request-Id', 'trace-500');
    expectErrorBody(res, 500);
    expect(res.headers['x-request-id']).to.equal('trace-500');
    const error = logger.lines.find((line) => line.level === 'error');
    expect(error).to.include({ service: 'cd-service', requestId: 'trace-500' });
  });
});
