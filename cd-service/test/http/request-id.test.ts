import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { captureLogger, request } from '../helpers.js';
import { type StoreHandle, sqliteFactory } from '../stores.js';

describe('X-Request-Id', () => {
  let handle: StoreHandle;
  beforeEach(async () => {
    handle = await sqliteFactory.open();
  });
  afterEach(() => handle.dispose());

  it('echoes the id, and writes it with the service name in the request log line', async () => {
    const logger = captureLogger('cd-service');
    const app = createApp({ store: handle.store, logger, logRequests: true }).callback();
    const res = await request(app).get('/cds').set('X-Request-Id', 'trace-me').expect(200);
    expect(res.headers['x-request-id']).to.equal('trace-me');
    const line = logger.lines.find((l) => l.message === 'request');
    expect(line).to.include({ service: 'cd-service', path: '/cds', requestId: 'trace-me' });
  });
});
