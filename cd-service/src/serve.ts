import { createServer, type Server } from 'node:http';
import type Koa from 'koa';
import type { Logger } from './log.js';

/**
 * Listens, and on SIGTERM/SIGINT stops accepting, finishes open requests, runs onClose
 * (closing the store), then exits. Returns the listening server (its address has the real port).
 */
export async function serve(
  app: Koa,
  { port, host }: { port: number; host: string },
  logger: Logger,
  onClose: () => Promise<void> | void = () => {},
): Promise<Server> {
  const server = createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const shutdown = (signal: string) => {
    logger.info('shutting down', { signal });
    server.close(async () => {
      try {
        await onClose();
      } catch (error) {
        logger.error('closing failed', { error: String(error) });
        process.exit(1);
      }
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => {
      logger.warn('forcing exit after 10 s');
      process.exit(1);
    }, 10_000).unref();
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  return server;
}
