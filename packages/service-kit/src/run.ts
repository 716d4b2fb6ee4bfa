import type Koa from 'koa';
import { createLogger, exitAfterLogs, type Logger } from './log.js';
import { serve } from './serve.js';

export interface Started {
  app: Koa;
  config: { port: number; host: string; shutdownDelayMs?: number };
  /** Closes what the service opened (a database), once every connection is closed. */
  onClose?: () => Promise<void> | void;
  /** Logged with the listening line. */
  details?: Record<string, unknown>;
}

/** A service's process: a logger, `start` (config, data, app), then listen; a failure exits 1. */
export async function runService(
  service: string,
  start: (logger: Logger) => Promise<Started> | Started,
): Promise<void> {
  const logger = createLogger(service);
  let started: Started | undefined;
  try {
    started = await start(logger);
    const { app, config, onClose, details } = started;
    const url = await serve(app, { ...config, logger, onClose });
    logger.info({ url, ...details }, `${service} listening`);
  } catch (error) {
    logger.error({ error: (error as Error).message }, `${service} cannot start`);
    await Promise.resolve(started?.onClose?.()).catch(() => {});
    exitAfterLogs(logger, 1);
  }
}
