import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import type { Logger } from './log.js';

/**
 * Listens, and on SIGTERM/SIGINT stops accepting, finishes open requests, then exits.
 * Answers the URL actually bound (PORT=0 picks a free port).
 */
export async function serve(
  app: Koa,
  { port, host }: { port: number; host: string },
  logger: Logger,
  onClose: () => Promise<void> | void = () => {},
): Promise<string> {
  const server = createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const shutdown = (signal: string) => {
    logger.info('shutting down', { signal });
    server.close(async () => {
      await onClose();
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
  const address = server.address() as AddressInfo;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}
