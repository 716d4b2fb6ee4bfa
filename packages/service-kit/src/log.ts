import { type DestinationStream, type Logger, pino } from 'pino';

export type { Logger } from 'pino';

/** What each logger writes to: stdout's SonicBoom, or a test's stream. */
type Output = Partial<Pick<ReturnType<typeof pino.destination>, 'end' | 'destroy' | 'once' | 'on'>>;
const outputs = new WeakMap<Logger, Output>();

/** The most that may wait for stdout's reader: past it, a line is dropped, not held. */
export const PENDING_LOG_BYTES = 4 * 1024 * 1024;
const STDOUT = { dest: 1, sync: false };

/**
 * JSON lines on stdout, each naming the service, so that the output of several can be filtered.
 * A reader slower than the lines, or stuck, would otherwise hold them all in memory: the lines
 * dropped are counted, and said in one line once the reader has caught up.
 */
export function createLogger(
  service: string,
  destination: DestinationStream = pino.destination({ ...STDOUT, maxLength: PENDING_LOG_BYTES }),
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
  const output = destination as Output;
  outputs.set(logger, output);
  let dropped = 0;
  output.on?.('drop', () => dropped++);
  output.on?.('drain', () => {
    if (dropped === 0) return;
    logger.warn({ dropped }, 'log lines dropped: stdout was not read as fast as they came');
    dropped = 0;
  });
  return logger;
}

export const silentLogger: Logger = pino({ level: 'silent' });

/**
 * Exits once the lines logged so far are written (pino writes stdout asynchronously), or after
 * `waitMs`, dropping them: a reader gone or stuck would make pino's own flush at exit retry the
 * write forever (sonic-boom's flushSync loops on EPIPE), and no timer could end the process.
 */
export function exitAfterLogs(logger: Logger, code: number, waitMs = 2_000): void {
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
