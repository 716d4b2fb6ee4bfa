import { existsSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { freshCdFile } from './cd-store.js';
import { commandsOfGroup, groupAlive, groupEnded, spawnMake } from './make.js';

const SERVICES = ['games-service', 'travel-service', 'cd-service'];

/** `make start` (the three services from their sources); resolves once the three are listening. */
async function makeStart(file: string, env: NodeJS.ProcessEnv = { PORT: '0' }) {
  const started = spawnMake('start', {
    // PORT=0 (the default here): each service binds a free port of its own, whatever else runs
    // on this machine.
    env: {
      LOG_REQUESTS: 'false',
      ...env,
      HOST: '127.0.0.1',
      MONGODB_URI: '',
      CD_DB_PATH: file,
      CD_SEED: 'false',
      ITINERARY_SEED: 'make-start',
    },
  });
  await started.until((output) =>
    SERVICES.every((service) => output.includes(`"message":"${service} listening"`)),
  );
  return started;
}

type Started = Awaited<ReturnType<typeof makeStart>>;

/**
 * Two runs of `make start` (PORT=0), each read by two tests below: one request to games-service,
 * then the stop, as a terminal's Ctrl-C or as a supervisor's SIGTERM to make. A start of the three
 * services from their sources costs seconds of CPU, and what the tests check (how the stop went,
 * which request lines were logged) is in the output and processes a run leaves: the two concerns
 * read the same runs. The stop comes after the answer: a request line, if any, was written before
 * the shutdown's.
 */
const RUNS = {
  'Ctrl-C (SIGINT to the process group)': {
    logRequests: undefined,
    stop: (started: Started) => process.kill(-started.pgid, 'SIGINT'),
  },
  'SIGTERM to make': {
    logRequests: 'true',
    stop: (started: Started) => started.child.kill('SIGTERM'),
  },
} as const;
type How = keyof typeof RUNS;

/** What a run showed: make's output, whether its whole group ended, the store's folder after. */
interface Run {
  output: string;
  groupEnded: boolean;
  file: string;
  filesLeft: string[];
}

const runs = new Map<How, Promise<Run>>();
/** The run stopped `how`, made by the first test that asks for it. */
function runOf(how: How): Promise<Run> {
  const made = runs.get(how);
  if (made) return made;
  const run = (async () => {
    const file = freshCdFile();
    const started = await makeStart(file, { PORT: '0', LOG_REQUESTS: RUNS[how].logRequests });
    try {
      const url = /"url":"(http:[^"]+)".*"message":"games-service listening"/.exec(
        started.output(),
      )?.[1];
      expect(url, started.output()).to.be.a('string');
      expect((await fetch(`${url}/api/games/1`)).status).to.equal(200);
      RUNS[how].stop(started);
      await started.exited;
      // make may be gone before the services it started: wait for the whole group.
      const ended = await groupEnded(started.pgid);
      return {
        output: started.output(),
        groupEnded: ended,
        file,
        filesLeft: readdirSync(dirname(file)),
      };
    } finally {
      if (groupAlive(started.pgid)) process.kill(-started.pgid, 'SIGKILL');
    }
  })();
  runs.set(how, run);
  return run;
}

describe('make start stops cleanly, by Ctrl-C or SIGTERM', function () {
  this.timeout(180_000);

  for (const how of Object.keys(RUNS) as How[]) {
    it(`${how}: every service logs that it shut down, no crash, nothing left running or open`, async () => {
      const { output, groupEnded: ended, file, filesLeft } = await runOf(how);
      expect(ended, 'a process of make start is still running').to.equal(true);
      expect(output).not.to.match(/Segmentation fault|core dumped|forcing exit/);
      for (const service of SERVICES) {
        expect(output, `${service} shut down`).to.match(
          new RegExp(`"service":"${service}".*"message":"shut down"`),
        );
      }
      // The SQLite store was closed: its -wal and -shm files are gone. The lock file stays by
      // design (cd-service/README.md, "One file, one process").
      expect(filesLeft).to.deep.equal(['cds.sqlite', 'cds.sqlite.lock']);
      expect(existsSync(file)).to.equal(true);
    });
  }
});

describe('make start stops on Ctrl-C in its first moments too', function () {
  this.timeout(120_000);

  it('Ctrl-C once the servers are launched, before they listen: stopped, nothing left running', async () => {
    const started = spawnMake('start', {
      env: { PORT: '0', HOST: '127.0.0.1', CD_DB_PATH: freshCdFile(), CD_SEED: 'false' },
    });
    try {
      for (
        let i = 0;
        i < 600 &&
        !commandsOfGroup(started.pgid).some((command) => command.includes('src/server.ts'));
        i++
      )
        await sleep(10);
      process.kill(-started.pgid, 'SIGINT');
      const output = await started.closed;
      expect(output.split('\n'), output).to.include('stopped');
      expect(await groupEnded(started.pgid), 'a process of make start is still running').to.equal(
        true,
      );
    } finally {
      if (groupAlive(started.pgid)) process.kill(-started.pgid, 'SIGKILL');
    }
  });
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
      await groupEnded(started.pgid);
    }
  });
});

describe('make start fails at once when a service cannot start', function () {
  this.timeout(120_000);

  it('a setting that cannot be right: make exits non-zero, naming the service, nothing left running', async () => {
    // The services would all refuse it; before, make waited for the ready line and exited 0.
    const started = spawnMake('start', {
      env: { PORT: '0', HOST: '127.0.0.1', LOG_REQUESTS: 'yes', CD_DB_PATH: freshCdFile() },
    });
    try {
      const [code] = await started.exited;
      expect(code, started.output()).to.be.a('number').and.not.equal(0);
      expect(started.output()).to.include('LOG_REQUESTS must be true or false');
      expect(started.output()).to.match(/(games|travel|cd)-service ended by itself \(exit 1\)/);
      expect(started.output().split('\n'), 'a line `stopped` (as after Ctrl-C)').not.to.include(
        'stopped',
      );
      expect(await groupEnded(started.pgid), 'a process of make start is still running').to.equal(
        true,
      );
    } finally {
      if (groupAlive(started.pgid)) process.kill(-started.pgid, 'SIGKILL');
    }
  });
});

describe('make start leaves request logs off unless LOG_REQUESTS turns them on', function () {
  this.timeout(180_000);

  for (const how of Object.keys(RUNS) as How[]) {
    const { logRequests } = RUNS[how];
    it(`LOG_REQUESTS ${logRequests ?? 'unset'}: ${logRequests ? 'one line per request' : 'no request line'}`, async () => {
      const { output } = await runOf(how);
      const lines = output.match(/"path":"\/api\/games\/1".*"message":"request"/g) ?? [];
      expect(lines).to.have.length(logRequests ? 1 : 0);
    });
  }
});
