import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { expect } from 'chai';
import mongoose from 'mongoose';
import { makeCdInput } from '../helpers.js';
import {
  EMULATOR_DIR,
  EMULATOR_URI_OPTIONS,
  type Emulator,
  freePort,
  MONGO_TARGET,
  startEmulator,
} from '../mongo-target.js';
import { json, NODE_FLAGS, serviceRoot } from './child.js';

type LogLine = Record<string, unknown>;

/** The real server in a process of its own, its log lines read as they come. */
class ServerProcess {
  readonly child: ChildProcess;
  readonly logs: LogLine[] = [];
  stderr = '';
  readonly exited: Promise<number | string>;
  #waiters: (() => void)[] = [];

  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, [...NODE_FLAGS, 'src/server.ts'], {
      cwd: serviceRoot,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_REQUESTS: 'false',
        CD_API_TOKEN: '',
        CD_SEED: 'false',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stderr?.on('data', (chunk) => {
      this.stderr += chunk;
    });
    createInterface({ input: this.child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      try {
        this.logs.push(JSON.parse(line) as LogLine);
      } catch {
        this.logs.push({ raw: line });
      }
      for (const wake of this.#waiters.splice(0)) wake();
    });
    // 'close', not 'exit': every line the process wrote has been read by then.
    this.exited = once(this.child, 'close').then(
      ([code, signal]) => (code ?? signal) as number | string,
    );
    void this.exited.then(() => {
      for (const wake of this.#waiters.splice(0)) wake();
    });
  }

  /** The first log line that matches, once it is written; fails if the process ends first. */
  async line(matches: (line: LogLine) => boolean): Promise<LogLine> {
    for (;;) {
      const found = this.logs.find(matches);
      if (found) return found;
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        throw new Error(`the server ended (${this.child.exitCode}): ${this.output()}`);
      }
      await new Promise<void>((wake) => this.#waiters.push(wake));
    }
  }

  output(): string {
    return `${JSON.stringify(this.logs)} ${this.stderr}`;
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM') {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}

const isRetry = (line: LogLine) => line.message === 'MongoDB does not answer yet; trying again';
const isListening = (line: LogLine) => line.message === 'cd-service listening';

/** The URI with another database, its hosts and options kept. */
function withDatabase(uri: string, db: string): string {
  return uri.replace(/^(mongodb(?:\+srv)?:\/\/[^/?]*)(\/[^?]*)?/, `$1/${db}`);
}

describe('the real server process on MongoDB', function () {
  this.timeout(90_000);
  const running: ServerProcess[] = [];
  const start = (env: Record<string, string>) => {
    const server = new ServerProcess(env);
    running.push(server);
    return server;
  };
  let emulator: Emulator | undefined;
  afterEach(async () => {
    for (const server of running.splice(0)) await server.stop('SIGKILL');
    await emulator?.stop();
    emulator = undefined;
  });

  it('retries an unreachable MongoDB with backoff for MONGODB_CONNECT_TIMEOUT_MS, then exits 1 naming the host', async () => {
    const port = await freePort();
    const server = start({
      MONGODB_URI: `mongodb://reader:s3cret-pass@127.0.0.1:${port}/cds`,
      MONGODB_CONNECT_TIMEOUT_MS: '7000',
    });
    expect(await server.exited).to.equal(1);
    const retries = server.logs.filter(isRetry);
    expect(retries.length, server.output()).to.be.at.least(2);
    expect(retries[0]).to.include({ level: 'warn', hosts: `127.0.0.1:${port}`, attempt: 1 });
    // Each attempt waits up to 3 s for a server (the time left, at the end), then the delay
    // before the next one doubles: 0-3 s, 250 ms, 3.25-6.25 s, 500 ms, 6.75-7 s, then it gives up.
    // A delay is cut to the time left, which a loaded machine makes shorter than 500 ms.
    const delays = retries.map((line) => Number(line.retryInMs));
    expect(delays[0]).to.equal(250);
    expect(delays[1]).to.be.within(1, 500);
    const failure = server.logs.find((line) => line.message === 'cd-service cannot start');
    expect(failure, server.output()).to.include({ level: 'error' });
    expect(String(failure?.error)).to.match(
      new RegExp(
        `^MongoDB at 127\\.0\\.0\\.1:${port} did not answer within 7000 ms \\(\\d+ attempts\\)`,
      ),
    );
    expect(server.output()).not.to.include('s3cret-pass');
    expect(server.logs.some(isListening)).to.equal(false);
  });

  if (MONGO_TARGET) {
    it('[mongodb] starts on MONGODB_URI, seeds once, answers, and stops cleanly', async () => {
      const uri = withDatabase(
        process.env.MONGODB_URI as string,
        `cd_service_process_${process.pid}_${Date.now()}`,
      );
      try {
        const first = start({ MONGODB_URI: uri, CD_SEED: 'true' });
        const listening = await first.line(isListening);
        expect(listening).to.include({ store: 'mongodb' });
        expect(Number(listening.cds)).to.be.greaterThan(0);
        const url = String(listening.url);
        expect((await json(`${url}/healthz`)).body).to.deep.equal({
          status: 'ok',
          store: 'mongodb',
          writes: 'ok',
        });
        const created = await json(`${url}/cds`, 'POST', makeCdInput({ title: 'Kept' }));
        expect(created.status).to.equal(201);
        expect(await first.stop('SIGTERM')).to.equal(0);

        const second = start({ MONGODB_URI: uri, CD_SEED: 'true' });
        const again = await second.line(isListening);
        expect(again.cds).to.equal(Number(listening.cds) + 1);
        expect(
          second.logs.some((line) => line.message === 'loaded the sample collection'),
        ).to.equal(false);
        expect((await json(`${again.url}/cds/${created.body.id}`)).body).to.deep.equal(
          created.body,
        );
      } finally {
        const admin = await mongoose.createConnection(uri).asPromise();
        await admin.dropDatabase();
        await admin.close();
      }
    });
  }

  if (MONGO_TARGET === 'emulator' && EMULATOR_DIR) {
    it('[mongodb] waits for a MongoDB that starts after it (as compose may start it)', async () => {
      const port = await freePort();
      const server = start({
        MONGODB_URI: `mongodb://127.0.0.1:${port}/cds_late?${EMULATOR_URI_OPTIONS}`,
        MONGODB_CONNECT_TIMEOUT_MS: '60000',
      });
      await server.line(isRetry);
      emulator = await startEmulator(port);
      const listening = await server.line(isListening);
      expect(listening).to.include({ store: 'mongodb', cds: 0 });
      const url = String(listening.url);
      expect((await json(`${url}/healthz`)).status).to.equal(200);
      expect((await json(`${url}/cds`, 'POST', makeCdInput())).status).to.equal(201);
    });
  }
});
