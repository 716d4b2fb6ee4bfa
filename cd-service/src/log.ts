export type LogFields = Record<string, unknown>;

export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/** One JSON object per line on stdout, the format log collectors read. */
export function createLogger(enabled = true): Logger {
  const write = (level: string) => (message: string, fields?: LogFields) => {
    if (enabled) {
      process.stdout.write(
        `${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`,
      );
    }
  };
  return { info: write('info'), warn: write('warn'), error: write('error') };
}

export const silentLogger: Logger = createLogger(false);
