import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Response } from 'supertest';
import { createApp } from '../../src/app.js';
import { openMongoStore } from '../../src/store/mongo.js';
import type { CdStore } from '../../src/store/store.js';
import { captureLogger, expectErrorBody, makeCdInput, request } from '../helpers.js';
import { type Emulator, skipWithoutEmulator, startEmulator } from '../mongo-target.js';

/** Resolves once `check` holds, trying again every 100 ms (the test's timeout bounds it). */
async function waitFor(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** A 503 with the JSON error body and Retry-After, saying nothing of the cause. */
function expectUnavailable(res: Response) {
  expectErrorBody(res, 503);
  expect(res.body).to.deep.equal({
    error: 'The database does not answer; try again later',
    status: 503,
  });
  expect(res.headers['retry-after']).to.equal('5');
  expect(res.headers['cache-control']).to.equal('no-store');
}

const title = 'losing MongoDB and getting it back [mongodb]';

// Only a server the test can stop and start again: an emulator instance of its own.
describe(title, function () {
  this.timeout(60_000);
  before(skipWithoutEmulator);
  let emulator: Emulator;
  let store: CdStore;
  let logger: ReturnType<typeof captureLogger>;

  beforeEach(async () => {
    emulator = await startEmulator();
    logger = captureLogger();
    // A short server selection keeps each failing request short.
    store = await openMongoStore(emulator.uri('cds_outage'), { serverSelectionTimeoutMS: 500 });
  });
  afterEach(async () => {
    await store.close().catch(() => {});
    await emulator.stop();
  });

  it('answers 503 with Retry-After while it is down, logs the cause, recovers without a restart', async () => {
    const app = createApp({ store, logger }).callback();
    const kept = (await request(app).post('/cds').send(makeCdInput()).expect(201)).body;
    const port = emulator.port;

    await emulator.stop();
    const health = await request(app).get('/healthz').expect(503);
    expect(health.body).to.deep.equal({ status: 'unavailable', store: 'mongodb', writes: 'ok' });
    expectUnavailable(await request(app).post('/cds').send(makeCdInput()));
    expectUnavailable(await request(app).put(`/cds/${kept.id}`).send({ title: 'Renamed' }));
    expectUnavailable(await request(app).delete(`/cds/${kept.id}`));
    expectUnavailable(await request(app).get(`/cds/${kept.id}`));
    expectUnavailable(await request(app).get('/cds'));

    const errors = logger.lines.filter((line) => line.level === 'error');
    expect(errors.length).to.be.at.least(6);
    expect(errors[0]).to.include({ message: 'store does not answer', store: 'mongodb' });
    for (const line of errors.slice(1)) {
      // The error handler's line, with the driver's failure as the cause.
      expect(line).to.include({ message: 'The database does not answer; try again later' });
      const err = line.err as { message?: string; stack?: string };
      expect(err.stack).to.match(/caused by: Mongo\w*Error/);
      expect(err.message).to.match(/ECONNREFUSED|connect|closed|Server selection/i);
    }

    // The same port again: the driver finds it on its own, the store is not reopened.
    emulator = await startEmulator(port);
    await waitFor(async () => (await request(app).get('/healthz')).status === 200);
    const created = await request(app).post('/cds').send(makeCdInput()).expect(201);
    await request(app).get(`/cds/${created.body.id}`).expect(200);
    await request(app).get(`/cds/${randomUUID()}`).expect(404);
    const list = await request(app).get('/cds').expect(200);
    expect(list.body.map((cd: { id: string }) => cd.id)).to.include(created.body.id);
  });
});
