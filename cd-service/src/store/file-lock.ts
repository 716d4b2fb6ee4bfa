import {
  closeSync,
  constants,
  existsSync,
  ftruncateSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { flockSync } from 'fs-ext';

/** The lock of a database file, held until released or until the process ends. */
export interface FileLock {
  /** The lock file, beside the database: `<file>.lock`. */
  readonly path: string;
  /** Gives the lock up; `remove` also deletes the lock file (a start that created it failed). */
  release(options?: { remove?: boolean }): void;
}

/** Who holds a lock, as its holder wrote it into the lock file. */
interface Holder {
  pid?: unknown;
  host?: unknown;
  since?: unknown;
}

/** The error of a database file that another process holds. */
export class FileInUse extends Error {
  override name = 'FileInUse';
}

/**
 * Takes the exclusive lock of a database `file`: flock(2) on `<file>.lock`, through a file
 * descriptor kept open until `release`. The kernel drops the lock when the process ends,
 * however it ends (SIGKILL included), so a lock never outlives its holder and never blocks a
 * restart. The holder writes its pid, host and start into the lock file; a second process that
 * cannot take the lock reads them for its message, and changes nothing. The lock file stays
 * beside the database (deleting a lock file others may have open would let two processes
 * hold "the" lock at once), except when the start that created it fails.
 */
export function lockFile(file: string): FileLock {
  const path = `${file}.lock`;
  const created = !existsSync(path);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o644);
  } catch (error) {
    throw new Error(`${file}: cannot open its lock file: ${(error as Error).message}`);
  }
  try {
    flockSync(fd, 'exnb');
  } catch (error) {
    const holder = readHolder(fd);
    closeSync(fd);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EAGAIN' || code === 'EWOULDBLOCK') {
      throw new FileInUse(
        `${file} is in use by another process (${describe(holder)}): one SQLite file serves one cd-service; stop that process first, or give this one another CD_DB_PATH`,
      );
    }
    throw new Error(`${file}: cannot lock ${path}: ${(error as Error).message}`);
  }
  const holder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  ftruncateSync(fd, 0);
  writeSync(fd, `${JSON.stringify(holder)}\n`, 0);
  let held = true;
  return {
    path,
    release({ remove = false } = {}) {
      if (!held) return;
      held = false;
      if (remove && created) unlinkSync(path);
      closeSync(fd);
    },
  };
}

function readHolder(fd: number): Holder {
  try {
    return JSON.parse(readFileSync(fd, 'utf8')) as Holder;
  } catch {
    return {};
  }
}

/** `pid 4242 on host web-1, since 2026-01-02T03:04:05.000Z`, or as much of it as is known. */
function describe({ pid, host, since }: Holder): string {
  if (typeof pid !== 'number' || typeof host !== 'string') return 'its pid and host are unknown';
  return `pid ${pid} on host ${host}${typeof since === 'string' ? `, since ${since}` : ''}`;
}
