import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { type RunningProcess, refusedStart, startService } from '../src/process.js';
import { cd, freshCdFile, send } from './cd-store.js';

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
