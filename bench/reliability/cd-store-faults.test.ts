import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { type RunningProcess, refusedStart, startService } from '../src/process.js';
import {
  freshCdFile,
  type MongoEmulator,
  mongoEmulatorDir,
  startMongoEmulator,
} from './cd-store.js';

interface Answer {
  status: number;
  retryAfter: string | null;
  body: unknown;
  ms: number;
}

/** One request to the service, timed. */
async function send(url: string, method = 'GET', body?: unknown): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body: text ? JSON.parse(text) : undefined,
    ms: Math.round(performance.now() - started),
  };
}

let counter = 0;
const cd = (artist = 'Reliability') => ({
  title: `Album ${++counter}`,
  artist,
  genre: 'Rock',
  releaseYear: 2001,
});

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('cd-service on SQLite: one file, one process', function () {
  this.timeout(120_000);
  const running: RunningProcess[] = [];
  afterEach(async () => {
    for (const service of running.splice(0)) await service.stop('SIGKILL');
  });

  it('a second process exits 1 with one line naming the file and the holder, changing nothing; a SIGKILLed holder never blocks a restart', async () => {
    const file = freshCdFile();
    const first = await startService('cd-service', { CD_DB_PATH: file, CD_SEED: 'false' });
    running.push(first);
    const kept = await send(`${first.url}/cds`, 'POST', cd());
    expect(kept.status).to.equal(201);
    const files = readdirSync(dirname(file)).sort();
    const lock = readFileSync(`${file}.lock`, 'utf8');

    const second = await refusedStart('cd-service', { CD_DB_PATH: file, CD_SEED: 'true' });
    expect(second.code).to.equal(1);
    expect(second.error).to.match(
      new RegExp(
        `^${literally(file)} is in use by another process \\(pid ${first.pid} on host ${literally(hostname())}, since [^)]+\\): one SQLite file serves one cd-service`,
      ),
    );
    expect(second.output.trim().split('\n')).to.have.length(1);
    expect(readdirSync(dirname(file)).sort()).to.deep.equal(files);
    expect(readFileSync(`${file}.lock`, 'utf8')).to.equal(lock);

    // A write through a second service would leave the first one's lists stale.
    // Now there is no second service, and the first one's lists are its own writes.
    const q = await send(`${first.url}/cds`, 'POST', cd('Q'));
    expect((await send(`${first.url}/cds?artist=Q`)).body).to.deep.equal([q.body]);

    for (let cycle = 0; cycle < 3; cycle++) {
      const holder = running.pop() as RunningProcess;
      await holder.stop('SIGKILL');
      const restarted = await startService('cd-service', { CD_DB_PATH: file, CD_SEED: 'false' });
      running.push(restarted);
      expect((await send(`${restarted.url}/cds?limit=1000`)).body).to.deep.include(kept.body);
    }
  });
});

describe('cd-service on SQLite: its file deleted or moved while it runs', function () {
  this.timeout(120_000);
  const running: RunningProcess[] = [];
  afterEach(async () => {
    for (const service of running.splice(0)) await service.stop('SIGKILL');
  });

  for (const how of ['rm', 'mv'] as const) {
    it(`${how}: 20 POSTs answer 503 with Retry-After, /healthz and /readyz 503; a restart finds every acknowledged write and nothing else`, async () => {
      const file = freshCdFile();
      const service = await startService('cd-service', { CD_DB_PATH: file, CD_SEED: 'false' });
      running.push(service);
      const before = await Promise.all(
        Array.from({ length: 5 }, () => send(`${service.url}/cds`, 'POST', cd())),
      );
      expect(before.map((a) => a.status)).to.deep.equal(Array(5).fill(201));
      const moved = `${file}.moved`;
      if (how === 'rm') rmSync(file);
      else renameSync(file, moved);

      const after = await Promise.all(
        Array.from({ length: 20 }, () => send(`${service.url}/cds`, 'POST', cd())),
      );
      expect(after.map((a) => a.status)).to.deep.equal(Array(20).fill(503));
      expect(after.every((a) => a.retryAfter === '5')).to.equal(true);
      expect((await send(`${service.url}/healthz`)).status).to.equal(503);
      expect((await send(`${service.url}/readyz`)).status).to.equal(503);
      await service.stop();

      // After mv the file is put back; after rm it is gone, and a start makes a new, empty one.
      if (how === 'mv') renameSync(moved, file);
      const restarted = await startService('cd-service', { CD_DB_PATH: file, CD_SEED: 'false' });
      running.push(restarted);
      const stored = (await send(`${restarted.url}/cds?limit=1000`)).body as { id: string }[];
      const acknowledged = before.map((a) => (a.body as { id: string }).id);
      expect(stored.map((c) => c.id).sort()).to.deep.equal(how === 'mv' ? acknowledged.sort() : []);
    });
  }

  it('a bad CD_SEED_FILE for a new database leaves nothing behind', async () => {
    const file = freshCdFile();
    const seed = join(dirname(file), 'seed.json');
    for (const text of ['[{"title": ', '{"an": "object"}', '[{"title": "x"}]']) {
      writeFileSync(seed, text);
      const { code, error } = await refusedStart('cd-service', {
        CD_DB_PATH: file,
        CD_SEED: 'true',
        CD_SEED_FILE: seed,
      });
      expect(code).to.equal(1);
      expect(error.startsWith(seed)).to.equal(true);
      expect(error).not.to.include('\n');
      expect(readdirSync(dirname(file))).to.deep.equal(['seed.json']);
    }
  });
});

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
