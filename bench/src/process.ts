import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export type ServiceName = 'games-service' | 'travel-service' | 'cd-service';

export interface RunningProcess {
  url: string;
  pid: number;
  /** Milliseconds from spawn to the "listening" log line. */
  startMs: number;
  child: ChildProcess;
  /**
   * Resident memory in MB, from /proc/<pid>/status: all of it (VmRSS), its part in mapped
   * files (RssFile: mostly the node executable's own pages, shared by every node process), or
   * the most it has been (VmHWM).
   */
  rssMb(part?: 'VmRSS' | 'RssFile' | 'VmHWM'): number;
  /**
   * The CPU time it has used so far, µs: user and system, every thread, from /proc/<pid>/stat
   * (clock ticks of 10 ms). Unlike req/s, it hardly moves when other processes share the cores.
   */
  cpuUs(): number;
  /** SIGTERM and wait for the exit (SIGKILL when `signal` says so). */
  stop(signal?: NodeJS.Signals): Promise<void>;
  exited(): boolean;
}

/** A free port on 127.0.0.1, and no line per request. */
const ON_ANY_LOOPBACK_PORT = { PORT: '0', HOST: '127.0.0.1', LOG_REQUESTS: 'false' };

/** Starts `node <args>` in `cwd` and waits for the JSON log line that carries the URL it listens on. */

export async function startProcess(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<RunningProcess> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...ON_ANY_LOOPBACK_PORT, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { message?: string; url?: string };
        if (entry.url && /listening/.test(entry.message ?? '')) resolve(entry.url);
      } catch {
        // not a log line
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`${cwd} exited with ${code} before listening: ${stderr}`)),
    );
  });
  const startMs = performance.now() - started;
  child.stdout?.resume();
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    pid: child.pid as number,
    startMs,
    child,
    rssMb: (part = 'VmRSS') => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(new RegExp(`${part}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN) / 1024;
    },
    cpuUs: () => {
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10_000;
    },
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exit;
    },
    exited: () => child.exitCode !== null || child.signalCode !== null,
  };
}

/**
 * Moves a process, every thread of it, onto the given CPU cores (`taskset`), so that a load
 * generator and the services it measures do not take turns on one core.
 */
export function pinToCores(pid: number, cores: string): void {
  execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', cores, String(pid)], {
    stdio: 'ignore',
  });
}

/** The arguments of `node` in a service's `npm start` command (its `start` script). */
function startArguments(name: ServiceName): string[] {
  const { scripts } = JSON.parse(readFileSync(join(repoRoot, name, 'package.json'), 'utf8'));
  const [command, ...args] = String(scripts?.start ?? '').split(/\s+/);
  if (command !== 'node') throw new Error(`${name}'s start script does not run node: ${command}`);
  return args;
}

/** The Node flags a service's `npm start` runs it with (heap settings). */
export const serviceNodeFlags = (name: ServiceName): string[] =>
  startArguments(name).filter((arg) => arg.startsWith('--'));

/**
 * Starts one of the services from its compiled JavaScript (`make build`) the way `npm start`
 * and its image do: the `node` command of its `start` script, Node's flags included, after
 * `extraFlags` (`--cpu-prof`, for one).
 */
export function startService(
  name: ServiceName,
  env: Record<string, string> = {},
  extraFlags: string[] = [],
): Promise<RunningProcess> {
  return startProcess(join(repoRoot, name), [...extraFlags, ...startArguments(name)], env);
}

/** What a start that must fail leaves: its exit code, the error it logged, all its output. */
export interface Refusal {
  code: number | null;
  error: string;
  output: string;
}

/**
 * Runs a compiled service with `env` (as `user` when given) until it exits: it must refuse to
 * start. Store and token settings are emptied unless `env` sets them.
 */
export async function refusedStart(
  name: ServiceName,
  env: Record<string, string>,
  user: { uid?: number; gid?: number } = {},
): Promise<Refusal> {
  const child = spawn(process.execPath, ['dist/server.js'], {
    ...user,
    cwd: join(repoRoot, name),
    env: { ...process.env, ...ON_ANY_LOOPBACK_PORT, MONGODB_URI: '', CD_API_TOKEN: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const [code] = (await once(child, 'close')) as [number | null];
  if (/"message":"[a-z-]+ listening"/.test(output)) throw new Error(`${name} started: ${output}`);
  const line = output.split('\n').find((l) => l.includes('cannot start'));
  return { code, error: line ? String(JSON.parse(line).error) : output, output };
}
