import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { notRunHere } from './reporter.js';

/**
 * Which MongoDB the Mongo suites run against (scripts/test-mongo.sh sets it): none without
 * MONGODB_URI; `emulator` for the wire-protocol emulator of ../shared/mongo-wire/; any other
 * URI is taken for a real mongod, and every test runs.
 */
export type MongoTarget = 'mongod' | 'emulator';

export const MONGO_TARGET: MongoTarget | undefined = !process.env.MONGODB_URI
  ? undefined
  : process.env.MONGO_TARGET === 'emulator'
    ? 'emulator'
    : 'mongod';

/** Said once, after their count, for the MongoDB tests a run without MONGODB_URI leaves pending. */
export const WITHOUT_MONGODB =
  'MongoDB tests not run here: `make test-mongo` runs them on the emulator or on MONGODB_URI';

/**
 * A suite that needs MongoDB, where there is none: its tests are pending, and the reporter
 * (reporter.ts) counts them in one line rather than listing each.
 */
export function describeWithoutMongo(title: string, define: () => void): void {
  describe.skip(title, function () {
    notRunHere(this, WITHOUT_MONGODB);
    define();
  });
}

/**
 * What the emulator does differently from mongod (../shared/mongo-wire/README.md). None of it
 * is worked around in the product: a test that fails only because of one is skipped on the
 * emulator, and runs against a real mongod.
 *
 * One more difference is not a skip: the emulator does not implement the driver's streaming
 * heartbeat (an awaitable `hello` answered with moreToCome), so the driver would clear its pool
 * at random ("Server ended moreToCome unexpectedly", then MongoPoolClearedError for whatever is
 * in flight). The emulator's URI therefore says `serverMonitoringMode=poll` (EMULATOR_URI_OPTIONS,
 * scripts/test-mongo.sh); a real mongod gets the driver's default.
 */
export const EMULATOR_DIFFERENCES = {
  stringOrder:
    'the emulator sorts strings with localeCompare (case-insensitive, accent-aware) and ignores ' +
    "the query's collation; mongod sorts by binary code point under { locale: 'simple' }",
} as const;

export type EmulatorDifference = keyof typeof EMULATOR_DIFFERENCES;

/** The options of an emulator's URI (see above). */
export const EMULATOR_URI_OPTIONS = 'serverMonitoringMode=poll';

/**
 * THE list: every test (by its full title) that fails on the emulator only because of one of
 * the differences above. Skipped when MONGO_TARGET=emulator, never otherwise.
 */
export const SKIPPED_ON_EMULATOR: { test: string; difference: EmulatorDifference }[] = [
  {
    test: 'store contract: mongodb list orders by title then id by default',
    difference: 'stringOrder',
  },
  {
    test: 'HTTP API /cds [mongodb] sorts as the stores do: by code point',
    difference: 'stringOrder',
  },
  {
    test: 'list order [mongodb] sorts mixed-case, accented and astral titles by code point, both ways',
    difference: 'stringOrder',
  },
  {
    test: 'list order [mongodb] sorts by artist, ties by title then id, by code point',
    difference: 'stringOrder',
  },
  {
    test: 'edited cursors [mongodb] start the page after the position they name: only CDs the filters match, in order, never an error',
    difference: 'stringOrder',
  },
];

/**
 * On the emulator, marks the listed tests pending, with the difference in their title; the
 * root hook (hooks.ts) calls it once the whole tree is loaded. Nothing happens elsewhere.
 */
export function skipEmulatorDifferences(root: Mocha.Suite): void {
  if (MONGO_TARGET !== 'emulator') return;
  const listed = new Map(SKIPPED_ON_EMULATOR.map((entry) => [entry.test, entry.difference]));
  const visit = (suite: Mocha.Suite) => {
    for (const test of suite.tests) {
      const difference = listed.get(test.fullTitle());
      if (difference === undefined) continue;
      test.pending = true;
      test.title += ` (skipped on the emulator: ${EMULATOR_DIFFERENCES[difference]})`;
    }
    for (const child of suite.suites) visit(child);
  };
  visit(root);
}

/** A port nothing listens on now, on the loopback. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export interface Emulator {
  port: number;
  uri(db: string): string;
  /** Stops it (SIGTERM) and waits until it is gone; its data, kept in memory, is lost. */
  stop(): Promise<void>;
  /** Freezes it (SIGSTOP): its connections stay open and new ones are queued, but nothing answers. */
  pause(): void;
  /** Lets it go on (SIGCONT) where it was, its data kept. */
  resume(): void;
}

/** The emulator's install folder when the suites run against it, to start more instances. */
export const EMULATOR_DIR =
  MONGO_TARGET === 'emulator' ? process.env.MONGO_EMULATOR_DIR || undefined : undefined;

/** Starts an emulator of its own on `port` (a free one by default): needs EMULATOR_DIR. */
export async function startEmulator(port?: number): Promise<Emulator> {
  if (!EMULATOR_DIR) throw new Error('MONGO_EMULATOR_DIR is not set');
  const chosen = port ?? (await freePort());
  const child: ChildProcess = spawn(
    process.execPath,
    [join(EMULATOR_DIR, 'server.mjs'), String(chosen)],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = once(child, 'exit');
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (output.includes('listening')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then(() => reject(new Error(`the emulator did not start: ${output}`)));
  });
  return {
    port: chosen,
    uri: (db) => `mongodb://127.0.0.1:${chosen}/${db}?${EMULATOR_URI_OPTIONS}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        // A frozen process would take the SIGTERM only once it goes on.
        child.kill('SIGCONT');
        child.kill('SIGTERM');
      }
      await exited;
    },
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
  };
}
