import { type DestinationStream, type Logger, pino } from 'pino';

export type { Logger } from 'pino';

/** What pino writes to: stdout's SonicBoom by default (end, destroy and 'close'), or a test's stream. */
interface Output {
  end?: () => void;
  destroy?: () => void;
  once?: (event: 'close', listener: () => void) => void;
}

/** What each logger made by createLogger writes to. */
const outputs = new WeakMap<Logger, Output>();

/**
 * One JSON object per line on stdout, the format log collectors read; every line names the
 * service that wrote it, so that the output of several services can be read and filtered.
 */
export function createLogger(
  service: string,
  destination: DestinationStream = pino.destination({ dest: 1, sync: false }),
): Logger {
  const logger = pino(
    {
      base: { service },
      messageKey: 'message',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  outputs.set(logger, destination as Output);
  return logger;
}

export const silentLogger: Logger = pino({ level: 'silent' });

/** How long an exit waits for the lines logged so far to be written: a reader that takes longer is gone or stuck. */
const LOG_WRITE_WAIT_MS = 2_000;

/**
 * Exits with `code` once every line logged so far is written, in order (pino writes stdout
 * asynchronously), or after `waitMs` whatever became of them. When stdout's reader has gone or
 * stopped reading, the lines still waiting are dropped: pino's own flush at exit would retry
 * the write forever (sonic-boom's flushSync loops on EPIPE), and no timer could end the process.
 */
export function exitAfterLogs(logger: Logger, code: number, waitMs = LOG_WRITE_WAIT_MS): void {
  const output = outputs.get(logger) ?? {};
  const exit = () => process.exit(code);
  setTimeout(() => {
    // Destroyed, the stream is skipped by pino's exit hook, and its pending lines are dropped.
    output.destroy?.();
    exit();
  }, waitMs);
  // Ending writes what is pending, then 'close'; after a broken pipe pino makes end() do nothing.
  output.once?.('close', exit);
  output.end?.();
}
