import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const serviceRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface RunningServer {
  url: string;
  child: ChildProcess;
  /** Every log line the server wrote, parsed. */
  logs: Record<string, unknown>[];
  /** Resolves with the exit code (or the signal's name) once the process ended. */
  exited: Promise<number | string>;
}

/** Node runs the sources, the service's and the kit's, through tsx (one process). */
export const NODE_FLAGS = ['--conditions=source', '--import', 'tsx'];

/** The server's environment: a free port on 127.0.0.1, SQLite, open writes, no line per request, then `env`. */
const serverEnv = (env: Record<string, string>) => ({
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_REQUESTS: 'false',
  MONGODB_URI: '',
  CD_API_TOKEN: '',
  ...env,
});

/**
 * Starts the real server on a free port and resolves once it logs `cd-service listening`,
 * with the URL it logged. Its log is pino's: one JSON object a line, `level` and `message`
 * as strings.
 */
export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const child = spawn(process.execPath, [...NODE_FLAGS, 'src/server.ts'], {
    cwd: serviceRoot,
    env: serverEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  // 'close', not 'exit': every line the process wrote has been read by then.
  const exited = once(child, 'close').then(([code, signal]) => (code ?? signal) as number | string);
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        if (entry.message === 'cd-service listening') resolve(String(entry.url));
      } catch {
        logs.push({ raw: line });
      }
    });
    void exited.then((code) =>
      reject(
        new Error(`server exited (${code}) before listening: ${JSON.stringify(logs)} ${stderr}`),
      ),
    );
  });
  return { url, child, logs, exited };
}

/** Stops the server with a signal and waits until it is gone. */
export async function stopServer(server: RunningServer, signal: NodeJS.Signals = 'SIGTERM') {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  return server.exited;
}

/** What a start that fails leaves: its exit code and its log lines. */
export interface Refusal {
  code: number | null;
  logs: Record<string, unknown>[];
  /** The message of the `cd-service cannot start` line. */
  error: string;
}

/** Runs the server with `env` until it exits (it must not start), as `user` when given. */
export async function refusedStart(
  env: Record<string, string>,
  user: { uid?: number; gid?: number } = {},
): Promise<Refusal> {
  const child = spawn(process.execPath, [...NODE_FLAGS, 'src/server.ts'], {
    ...user,
    cwd: serviceRoot,
    env: serverEnv(env),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  const [code] = (await once(child, 'close')) as [number | null];
  const logs = out
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const failure = logs.find((line) => line.message === 'cd-service cannot start');
  if (logs.some((line) => line.message === 'cd-service listening')) {
    throw new Error(`the server started: ${out}`);
  }
  return { code, logs, error: String(failure?.error) };
}

export async function json(url: string, method = 'GET', body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
