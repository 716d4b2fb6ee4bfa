import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { skip } from './skip.js';

/**
 * Which MongoDB the Mongo suites run against (scripts/test-mongo.sh sets it): none without
 * MONGODB_URI; `emulator` for the wire-protocol emulator of ../shared/mongo-wire/; any other
 * URI is taken for a real mongod, where no test skips itself for the emulator's differences.
 */
export type MongoTarget = 'mongod' | 'emulator';

export const MONGO_TARGET: MongoTarget | undefined = !process.env.MONGODB_URI
  ? undefined
  : process.env.MONGO_TARGET === 'emulator'
    ? 'emulator'
    : 'mongod';

/** Why a suite that needs MongoDB is skipped where there is none: said once, after their count. */
export const WITHOUT_MONGODB =
  'MongoDB tests not run here: `make test-mongo` runs them on the emulator or on MONGODB_URI';

/** A `before` hook for a suite that needs MongoDB: skips it where there is none. */
export function skipWithoutMongo(this: Mocha.Context): void {
  if (!MONGO_TARGET) skip(this, WITHOUT_MONGODB);
}

/**
 * What the emulator does differently from mongod (../shared/mongo-wire/README.md). None of it
 * is worked around in the product: a test that fails only because of one names it at its start
 * (`skipWhereDiffers`, stores.ts), and is skipped on the emulator, run against a real mongod.
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

/** What the MongoDB the suites run against does differently from mongod: none but the emulator. */
export const MONGO_DIFFERENCES: readonly EmulatorDifference[] =
  MONGO_TARGET === 'emulator' ? (Object.keys(EMULATOR_DIFFERENCES) as EmulatorDifference[]) : [];

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

/** Why a suite that stops or freezes a MongoDB of its own is skipped on a real mongod. */
export const WITHOUT_EMULATOR =
  'MongoDB tests not run here: they stop and freeze an emulator of their own, which `make test-mongo` starts when MONGODB_URI is unset (MONGO_EMULATOR_DIR)';

/** A `before` hook for a suite that stops or freezes its MongoDB: only an emulator lets it. */
export function skipWithoutEmulator(this: Mocha.Context): void {
  skipWithoutMongo.call(this);
  if (!EMULATOR_DIR) skip(this, WITHOUT_EMULATOR);
}

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
