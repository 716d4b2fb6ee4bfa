import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type Koa from 'koa';
import type { Logger } from './log.js';

/** What Node answers itself, before Koa, to bytes that are not an HTTP request: the JSON error body. */
function badRequest(): string {
  const body = JSON.stringify({ error: 'Malformed HTTP request', status: 400 });
  return [
    'HTTP/1.1 400 Bad Request',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'X-Content-Type-Options: nosniff',
    "Content-Security-Policy: default-src 'none'",
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Listens, and on SIGTERM/SIGINT stops accepting, finishes open requests, runs onClose
 * (closing a database), then exits. Answers the URL actually bound (PORT=0 picks a free port).
 */
export async function serve(
  app: Koa,
  { port, host }: { port: number; host: string },
  logger: Logger,
  onClose: () => Promise<void> | void = () => {},
): Promise<string> {
  const server = createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (socket.writable && error.code !== 'ECONNRESET') socket.end(badRequest());
    else socket.destroy();
  });
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
  const address = server.address() as AddressInfo;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}
