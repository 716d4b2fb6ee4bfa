import { type DestinationStream, type Logger, pino } from 'pino';

export type { Logger } from 'pino';

/**
 * One JSON object per line on stdout, the format log collectors read; every line names the
 * service that wrote it, so that the output of several services can be read and filtered.
 */
export function createLogger(service: string, destination?: DestinationStream): Logger {
  return pino(
    {
      base: { service },
      messageKey: 'message',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

export const silentLogger: Logger = pino({ level: 'silent' });

/**
 * Exits once every line logged so far is written, in order: pino writes stdout asynchronously,
 * and at a bare `process.exit` a line still being written could land after the last one.
 */
export function exitAfterLogs(logger: Logger, code: number): void {
  logger.flush(() => process.exit(code));
}
