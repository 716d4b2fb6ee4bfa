import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot } from '../src/process.js';

type Database = {
  prepare(sql: string): {
    all(): Record<string, unknown>[];
    get(...args: unknown[]): Record<string, unknown> | undefined;
  };
  pragma(sql: string, options?: { simple: boolean }): unknown;
  close(): void;
};

/** cd-service's own better-sqlite3, read-only, to look at a store from outside the service. */
export function cdDatabase(file: string): Database {
  const require = createRequire(join(repoRoot, 'cd-service', 'package.json'));
  const Database = require('better-sqlite3');
  return new Database(file, { readonly: true });
}

export const freshCdFile = () => join(mkdtempSync(join(tmpdir(), 'cd-reliability-')), 'cds.sqlite');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Stored bytes that are well-formed UTF-8 of the text read back (a lone surrogate would not be). */
function wellFormed(bytes: unknown, value: unknown): boolean {
  try {
    return Buffer.isBuffer(bytes) && utf8.decode(bytes) === value;
  } catch {
    return false;
  }
}

/**
 * Every stored row that breaks the CD schema (checked independently of the service's code):
 * text non-empty, trimmed, at most 200 characters, well-formed UTF-8 as stored, without control
 * characters (U+0000-U+001F, U+007F-U+009F).
 */
export function invalidStoredCds(db: Database): string[] {
  const maxYear = new Date().getUTCFullYear() + 1;
  const text = (value: unknown, bytes: unknown) =>
    typeof value === 'string' &&
    value.length > 0 &&
    value === value.trim() &&
    [...value].length <= 200 &&
    !/\p{Cc}/u.test(value) &&
    wellFormed(bytes, value);
  const bad: string[] = [];
  const rows = db
    .prepare(
      'SELECT *, CAST(title AS BLOB) AS title_bytes, CAST(artist AS BLOB) AS artist_bytes, CAST(genre AS BLOB) AS genre_bytes FROM cds',
    )
    .all();
  for (const { title_bytes, artist_bytes, genre_bytes, ...row } of rows) {
    const year = row.release_year ?? row.releaseYear;
    const ok =
      UUID.test(String(row.id)) &&
      text(row.title, title_bytes) &&
      text(row.artist, artist_bytes) &&
      text(row.genre, genre_bytes) &&
      Number.isInteger(year) &&
      (year as number) >= 1800 &&
      (year as number) <= maxYear &&
      ISO.test(String(row.created_at ?? row.createdAt)) &&
      ISO.test(String(row.updated_at ?? row.updatedAt));
    if (!ok) bad.push(JSON.stringify(row));
  }
  return bad;
}

/** The MongoDB wire emulator's install folder (../shared/mongo-wire/setup.sh), or why there is none. */
export function mongoEmulatorDir(): { dir?: string; missing?: string } {
  const setup = join(repoRoot, '..', 'shared', 'mongo-wire', 'setup.sh');
  if (!existsSync(setup)) return { missing: `no MongoDB emulator at ${dirname(setup)}` };
  try {
    return { dir: execFileSync(setup, { encoding: 'utf8' }).trim() };
  } catch (error) {
    return { missing: `the MongoDB emulator did not install: ${(error as Error).message}` };
  }
}

export interface MongoEmulator {
  uri(db: string): string;
  /** SIGSTOP: connections stay open, nothing answers (a hung database). */
  pause(): void;
  /** SIGCONT: it goes on where it was. */
  resume(): void;
  stop(): Promise<void>;
}

/** Starts an emulator of its own on a free port of the loopback. */
export async function startMongoEmulator(dir: string): Promise<MongoEmulator> {
  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = server.address() as { port: number };
      server.close(() => resolve(free));
    });
  });
  const child = spawn(process.execPath, [join(dir, 'server.mjs'), String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit');
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (output.includes('listening')) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(() => reject(new Error(`the emulator did not start: ${output}`)));
  });
  return {
    // The emulator cannot stream the driver's awaitable hello: it is polled (its README).
    uri: (db) => `mongodb://127.0.0.1:${port}/${db}?serverMonitoringMode=poll`,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGCONT');
        child.kill('SIGTERM');
      }
      await exited;
    },
  };
}

/**
 * Every stored CD by id, as a client reads them: a page of 1,000 at a time, following the list's
 * `Link: rel="next"` (a cursor) to the end.
 */
export async function everyCd<T extends { id: string }>(url: string): Promise<Map<string, T>> {
  const all = new Map<string, T>();
  let next: string | undefined = '/cds?limit=1000';
  while (next !== undefined) {
    const response: Response = await fetch(new URL(next, url));
    if (!response.ok) throw new Error(`GET ${next}: ${response.status} ${await response.text()}`);
    for (const cd of (await response.json()) as T[]) all.set(cd.id, cd);
    next = /<([^>]*)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
  }
  return all;
}

/** An answer of the service, as the store's fault tests judge it, and how long it took. */
export interface Answer {
  status: number;
  retryAfter: string | null;
  body: unknown;
  ms: number;
}

/** One request to the service, timed. */
export async function send(url: string, method = 'GET', body?: unknown): Promise<Answer> {
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
/** A valid CD to write, its title numbered. */
export const cd = (artist = 'Reliability') => ({
  title: `Album ${++counter}`,
  artist,
  genre: 'Rock',
  releaseYear: 2001,
});
