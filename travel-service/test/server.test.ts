import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { planItineraries } from '../src/itineraries/itineraries.js';
import { makeDestination } from './fixtures.js';
import { seededDestinations } from './helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Started {
  child: ChildProcess;
  lines: Record<string, unknown>[];
  exited: Promise<number | null>;
}

/** Runs src/server.ts as `npm run dev` does, collecting its JSON log lines. */
function start(env: Record<string, string>, nodeOptions: string[] = []): Started {
  const args = [...nodeOptions, '--conditions=source', '--import', 'tsx', 'src/server.ts'];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', LOG_REQUESTS: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    for (const part of parts) if (part.trim()) lines.push(JSON.parse(part));
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return { child, lines, exited };
}

async function waitFor(started: Started, message: string) {
  for (let i = 0; i < 200; i++) {
    const line = started.lines.find((l) => l.message === message);
    if (line) return line;
    if (started.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no "${message}" log line: ${JSON.stringify(started.lines)}`);
}

describe('server', function () {
  this.timeout(30_000);

  it('serves the itineraries of ITINERARY_SEED, logs the seed, and shuts down on SIGTERM', async () => {
    const started = start({ PORT: '0', ITINERARY_SEED: 'replica seed' });
    try {
      const generated = await waitFor(started, 'itineraries generated');
      expect(generated).to.include({
        seed: 'replica seed',
        seedFrom: 'ITINERARY_SEED',
        destinations: 14,
      });
      const { url } = await waitFor(started, 'travel-service listening');
      expect(url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${url}/api/itineraries/new-york`);
      expect(res.status).to.equal(200);
      const expected = planItineraries(seededDestinations, 'replica seed').find(
        'new-york',
      )?.itinerary;
      expect(await res.json()).to.deep.equal(expected);
      started.child.kill('SIGTERM');
      expect(await started.exited).to.equal(0);
      expect(started.lines.map((l) => l.message)).to.include('shutting down');
    } finally {
      started.child.kill('SIGKILL');
    }
  });

  it('chooses a random seed and logs it when ITINERARY_SEED is not set', async () => {
    const started = start({ PORT: '0', ITINERARY_SEED: '' });
    try {
      const generated = await waitFor(started, 'itineraries generated');
      expect(generated.seedFrom).to.equal('random');
      expect(generated.seed).to.match(/^[0-9a-f]{16}$/);
    } finally {
      started.child.kill('SIGTERM');
      await started.exited;
    }
  });

  it('refuses to start on a broken data file, naming the bad record', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'travel-'));
    const file = join(dir, 'destinations.json');
    writeFileSync(
      file,
      JSON.stringify([
        makeDestination({ name: 'Fine' }),
        { ...makeDestination({ name: 'Broken' }), summary: 7 },
      ]),
    );
    const started = start({ PORT: '0', DESTINATIONS_FILE: file });
    expect(await started.exited).to.equal(1);
    const failure = started.lines.find((l) => l.message === 'travel-service cannot start');
    expect(failure?.level).to.equal('error');
    expect(failure?.error).to.match(/record 1 \("Broken"\): field "summary" must be string/);
  });

  it('refuses a file too large for the memory the process may use, naming the file, its size and the limit', async () => {
    // Refused from its size alone, before a byte of it is read: a sparse file of 1 GB will do.
    const file = join(mkdtempSync(join(tmpdir(), 'travel-')), 'destinations-too-large.json');
    writeFileSync(file, '');
    truncateSync(file, 2 ** 30);
    const started = start({ PORT: '0', DESTINATIONS_FILE: file }, ['--max-old-space-size=256']);
    expect(await started.exited).to.equal(1);
    const failure = started.lines.find((l) => l.message === 'travel-service cannot start');
    expect(failure?.error).to.match(
      new RegExp(
        `^${file}: 1,024 MB of destinations would take about [0-9,]+ MB once loaded, more than the [0-9,]+ MB this process may use`,
      ),
    );
  });
});
