import { expect } from 'chai';
import type { Response } from 'supertest';
import { createApp } from '../../src/app.js';
import { DEFAULT_MONGODB_HEALTH_TIMEOUT_MS, DEFAULT_MONGODB_TIMEOUT_MS } from '../../src/config.js';
import { openMongoStore } from '../../src/store/mongo.js';
import type { CdStore } from '../../src/store/store.js';
import { captureLogger, expectErrorBody, makeCdInput, request } from '../helpers.js';
import { type Emulator, skipWithoutEmulator, startEmulator } from '../mongo-target.js';

/** Resolves once `check` holds, trying again every 100 ms (the test's timeout bounds it). */
async function waitFor(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** The answer and how long it took, in ms. */
async function timed(send: () => PromiseLike<Response>): Promise<{ res: Response; ms: number }> {
  const started = performance.now();
  const res = await send();
  return { res, ms: Math.round(performance.now() - started) };
}

/** How long the database stays frozen: long enough to outlast every deadline on MongoDB (4 s). */
const FROZEN_MS = 20_000;

const title = 'a hung MongoDB (SIGSTOP) and back (SIGCONT) [mongodb]';

// Only a server the test can freeze: an emulator instance of its own.
describe(title, function () {
  this.timeout(90_000);
  before(skipWithoutEmulator);
  let emulator: Emulator;
  let store: CdStore;
  const logger = captureLogger('cd-service');

  beforeEach(async () => {
    emulator = await startEmulator();
    logger.lines.splice(0);
    // The service's own settings: the defaults of MONGODB_TIMEOUT_MS and MONGODB_HEALTH_TIMEOUT_MS.
    store = await openMongoStore(emulator.uri('cds_hang'), {
      timeoutMs: DEFAULT_MONGODB_TIMEOUT_MS,
      healthTimeoutMs: DEFAULT_MONGODB_HEALTH_TIMEOUT_MS,
      logger,
    });
  });
  afterEach(async () => {
    emulator.resume();
    await store.close().catch(() => {});
    await emulator.stop();
  });

  it('answers 503 with Retry-After while it does not answer, /healthz and /readyz 503 too, and serves again once it answers', async () => {
    const app = createApp({ store, logger }).callback();
    const kept = (await request(app).post('/cds').send(makeCdInput()).expect(201)).body;

    emulator.pause();
    const frozenAt = performance.now();
    // Asked together, and again a little later, while the database stays frozen for FROZEN_MS.
    // Each answer must come before it goes on: a service that waited for the database (as
    // before, 40 s for /healthz) would answer only afterwards.
    const ask = () => ({
      health: timed(() => request(app).get('/healthz')),
      ready: timed(() => request(app).get('/readyz')),
      post: timed(() => request(app).post('/cds').send(makeCdInput())),
      list: timed(() => request(app).get('/cds')),
      get: timed(() => request(app).get(`/cds/${kept.id}`)),
      put: timed(() => request(app).put(`/cds/${kept.id}`).send({ title: 'Renamed' })),
      delete: timed(() => request(app).delete(`/cds/${kept.id}`)),
    });
    const first = ask();
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const second = ask();
    const rounds = await Promise.all(
      [first, second].map(async (round) =>
        Object.fromEntries(
          await Promise.all(
            Object.entries(round).map(async ([name, answer]) => [name, await answer] as const),
          ),
        ),
      ),
    );
    const answeredAfter = performance.now() - frozenAt;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, FROZEN_MS - answeredAfter)));
    emulator.resume();
    for (const [index, round] of rounds.entries()) {
      console.log(
        `      MongoDB frozen, round ${index + 1}, answered after (ms): ${Object.entries(round)
          .map(([name, { ms }]) => `${name} ${ms}`)
          .join(', ')}`,
      );
    }
    expect(answeredAfter, 'every answer came while the database was frozen').to.be.below(FROZEN_MS);
    for (const round of rounds) {
      expect(round.health?.res.status).to.equal(503);
      expect(round.health?.res.body).to.deep.equal({
        status: 'unavailable',
        store: 'mongodb',
        writes: 'ok',
      });
      expect(round.ready?.res.status).to.equal(503);
      for (const name of ['post', 'list', 'get', 'put', 'delete']) {
        const res = round[name]?.res as Response;
        expectErrorBody(res, 503);
        expect(res.body).to.deep.equal({
          error: 'The database does not answer; try again later',
          status: 503,
        });
        expect(res.headers['retry-after']).to.equal('5');
      }
    }
    const errors = logger.lines.filter((line) => line.level === 'error');
    expect(errors.length).to.be.at.least(2 * 7);

    await waitFor(async () => (await request(app).get('/healthz')).status === 200);
    await request(app).get('/readyz').expect(200);
    const created = await request(app).post('/cds').send(makeCdInput()).expect(201);
    const list = await request(app).get('/cds').expect(200);
    expect(list.body.map((cd: { id: string }) => cd.id)).to.include(created.body.id);
  });
});
