import { expect } from 'chai';
import { type RunningProcess, startService } from '../../src/process.js';
import {
  type Answer,
  cd,
  type MongoEmulator,
  mongoEmulatorDir,
  send,
  startMongoEmulator,
} from '../cd-store.js';

// Its own file, in quiet/: every answer must come within the store's time limits for MongoDB
// (MONGODB_TIMEOUT_MS), a 503 while the database is frozen and a 2xx before and after, which a
// busy machine could push past them (cd-store-faults.test.ts has the SQLite faults).
const emulator = mongoEmulatorDir();
const FROZEN_MS = 30_000;

(emulator.dir ? describe : describe.skip)(
  `cd-service on MongoDB frozen with SIGSTOP for ${FROZEN_MS / 1000} s${emulator.missing ? ` (SKIPPED: ${emulator.missing})` : ''}`,
  function () {
    this.timeout(180_000);
    let mongo: MongoEmulator | undefined;
    let service: RunningProcess | undefined;
    afterEach(async () => {
      await service?.stop('SIGKILL');
      await mongo?.stop();
    });

    it('answers 503 with Retry-After (requests) and 503 (/healthz, /readyz) while frozen, and serves again after SIGCONT without a restart', async () => {
      mongo = await startMongoEmulator(emulator.dir as string);
      service = await startService('cd-service', {
        MONGODB_URI: mongo.uri('cds_frozen'),
        CD_SEED: 'true',
      });
      const url = service.url;
      const kept = await send(`${url}/cds`, 'POST', cd());
      expect(kept.status).to.equal(201);
      const id = (kept.body as { id: string }).id;

      mongo.pause();
      const frozenAt = performance.now();
      // Every answer is taken while the database stays frozen: a service that waited for it
      // would answer only after SIGCONT, which comes after these.
      const answers: Record<string, Answer> = {};
      answers['GET /healthz'] = await send(`${url}/healthz`);
      answers['GET /readyz'] = await send(`${url}/readyz`);
      answers['GET /cds'] = await send(`${url}/cds`);
      answers['POST /cds'] = await send(`${url}/cds`, 'POST', cd());
      answers['GET /cds/:id'] = await send(`${url}/cds/${id}`);
      const burst = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2 ? send(`${url}/cds`) : send(`${url}/cds`, 'POST', cd()),
        ),
      );
      answers['20 at once (max)'] = burst.reduce((a, b) => (a.ms >= b.ms ? a : b));
      const answeredWithin = performance.now() - frozenAt;
      expect(answeredWithin, 'every answer came while the database was frozen').to.be.below(
        FROZEN_MS,
      );
      await new Promise((resolve) => setTimeout(resolve, FROZEN_MS - answeredWithin));
      mongo.resume();

      console.log(
        `      with MongoDB frozen: ${Object.entries(answers)
          .map(([name, a]) => `${name} ${a.status} after ${a.ms} ms`)
          .join('; ')}`,
      );
      expect(answers['GET /healthz']?.status).to.equal(503);
      expect(answers['GET /readyz']?.status).to.equal(503);
      for (const answer of [
        answers['GET /cds'],
        answers['POST /cds'],
        answers['GET /cds/:id'],
        ...burst,
      ]) {
        expect(answer?.status).to.equal(503);
        expect(answer?.retryAfter).to.equal('5');
      }

      // Back: the same process serves again.
      const resumedAt = performance.now();
      while ((await send(`${url}/healthz`)).status !== 200) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const healthyAfter = Math.round(performance.now() - resumedAt);
      const created = await send(`${url}/cds`, 'POST', cd());
      expect(created.status).to.equal(201);
      expect((await send(`${url}/readyz`)).status).to.equal(200);
      expect((await send(`${url}/cds/${(created.body as { id: string }).id}`)).status).to.equal(
        200,
      );
      console.log(`      after SIGCONT: /healthz 200 within ${healthyAfter} ms, then a POST 201`);
    });
  },
);
