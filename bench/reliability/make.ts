import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot } from '../src/process.js';

/** Whether any process of the group is alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * `make TARGET` in a process group of its own, as a terminal runs it, with its output (stdout and
 * stderr, as a terminal shows them) and a way to wait for a line of it.
 */
export function spawnMake(
  target: string,
  options: { cwd?: string; env?: NodeJS.ProcessEnv; args?: string[] } = {},
) {
  const child = spawn('make', ['--no-print-directory', ...(options.args ?? []), target], {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const listeners = new Set<() => void>();
  const take = (chunk: Buffer) => {
    output += chunk;
    for (const listener of listeners) listener();
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  // Once make and every process that holds its output (what it started) are gone, and the
  // output read whole: `exit` may come before the last lines.
  const closed = once(child, 'close').then(() => output);
  let ended = false;
  exited.then(() => {
    ended = true;
    for (const listener of listeners) listener();
  });
  /** Resolves once `predicate` holds of the output; rejects if make ends before. */
  const until = (predicate: (output: string) => boolean) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (predicate(output)) {
          listeners.delete(check);
          resolve();
        } else if (ended) {
          listeners.delete(check);
          reject(new Error(`make ${target} ended before what was awaited:\n${output}`));
        }
      };
      listeners.add(check);
      check();
    });
  return { child, pgid: child.pid as number, exited, closed, output: () => output, until };
}

/** Waits (a generous bound) until no process of the group is left. */
export async function groupEnded(pgid: number): Promise<boolean> {
  for (let i = 0; i < 600 && groupAlive(pgid); i++) await sleep(50);
  return !groupAlive(pgid);
}

/** The command lines of the group's processes (Linux: from /proc). */
export function commandsOfGroup(pgid: number): string[] {
  const commands: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // The process group is the 5th field of stat, after the command in parentheses.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== pgid) continue;
      commands.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '));
    } catch {
      // gone meanwhile
    }
  }
  return commands;
}
