import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { repoRoot } from '../src/process.js';
import { freshCdFile } from './cd-store.js';

const SERVICES = ['games-service', 'travel-service', 'cd-service'];

/** Whether any process of the group is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * `make start` (the three services from their sources) in a process group of its own, as a
 * terminal runs it; resolves once the three are listening.
 */
async function makeStart(file: string, env: NodeJS.ProcessEnv = { PORT: '0' }) {
  const child = spawn('make', ['--no-print-directory', 'start'], {
    cwd: repoRoot,
    // PORT=0 (the default here): each service binds a free port of its own, whatever else runs
    // on this machine.
    env: {
      ...process.env,
      ...env,
      HOST: '127.0.0.1',
      LOG_REQUESTS: 'false',
      MONGODB_URI: '',
      CD_DB_PATH: file,
      CD_SEED: 'false',
      ITINERARY_SEED: 'make-start',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const listening = new Set<string>();
  const ready = new Promise<void>((resolve, reject) => {
    const take = (chunk: Buffer) => {
      output += chunk;
      for (const service of SERVICES)
        if (output.includes(`"message":"${service} listening"`)) listening.add(service);
      if (listening.size === SERVICES.length) resolve();
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('exit', (code) =>
      reject(new Error(`make start exited (${code}) before the services listened:\n${output}`)),
    );
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  await ready;
  return { child, pgid: child.pid as number, exited, output: () => output };
}

describe('make start stops cleanly, by Ctrl-C or SIGTERM', function () {
  this.timeout(180_000);

  for (const how of ['Ctrl-C (SIGINT to the process group)', 'SIGTERM to make']) {
    it(`${how}: every service logs that it shut down, no crash, nothing left running or open`, async () => {
      const file = freshCdFile();
      const started = await makeStart(file);
      try {
        if (how.startsWith('Ctrl-C')) process.kill(-started.pgid, 'SIGINT');
        else started.child.kill('SIGTERM');
        await started.exited;
        // make may be gone before the services it started: wait for the whole group.
        for (let i = 0; i < 600 && groupAlive(started.pgid); i++) await sleep(50);
        expect(groupAlive(started.pgid), 'a process of make start is still running').to.equal(
          false,
        );
        const output = started.output();
        expect(output).not.to.match(/Segmentation fault|core dumped|forcing exit/);
        for (const service of SERVICES) {
          expect(output, `${service} shut down`).to.match(
            new RegExp(`"service":"${service}".*"message":"shut down"`),
          );
        }
        // The SQLite store was closed: its -wal and -shm files are gone. The lock file stays by
        // design (cd-service/README.md, "One file, one process").
        expect(readdirSync(dirname(file))).to.deep.equal(['cds.sqlite', 'cds.sqlite.lock']);
      } finally {
        if (groupAlive(started.pgid)) process.kill(-started.pgid, 'SIGKILL');
      }
      expect(existsSync(file)).to.equal(true);
    });
  }
});

describe('make start tells a newcomer where the services are', function () {
  this.timeout(180_000);

  it('prints one plain line with the three addresses once all three answer', async () => {
    const started = await makeStart(freshCdFile(), { PORT: undefined });
    try {
      const line =
        'Ready: games http://127.0.0.1:3001/  travel http://127.0.0.1:3002/  cd http://127.0.0.1:3003/docs';
      for (let i = 0; i < 600 && !started.output().includes(line); i++) await sleep(100);
      const plain = started
        .output()
        .split('\n')
        .filter((text) => text.startsWith('Ready:'));
      expect(plain).to.have.length(1);
      expect(plain[0]).to.include(line);
    } finally {
      process.kill(-started.pgid, 'SIGINT');
      await started.exited;
      for (let i = 0; i < 600 && groupAlive(started.pgid); i++) await sleep(50);
    }
  });
});
