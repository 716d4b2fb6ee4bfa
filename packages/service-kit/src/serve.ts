import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type Koa from 'koa';
import { markDraining } from './health.js';
import { createLogger, exitAfterLogs, type Logger } from './log.js';
import { API_SECURITY_HEADERS } from './middleware/security-headers.js';

/** From the moment the server stops accepting: longer than any request should take. */
const FORCED_EXIT_MS = 10_000;
/** After the server stops accepting, how long a connection with nothing under way stays open. */
export const IDLE_GRACE_MS = 2_000;
const SWEEP_MS = 100;

/** What Node's parser reports, answered as Node itself would (431, 408), else 400. */
const CLIENT_ERRORS = new Map<string | undefined, [number, string]>([
  ['HPE_HEADER_OVERFLOW', [431, 'The request headers are too large']],
  ['ERR_HTTP_REQUEST_TIMEOUT', [408, 'The request took too long to arrive']],
]);

/**
 * Per connection, the answer it is making, or whose request is still being read: set by each
 * request, cleared when it closes (kept longer, every answer lived on into the old generation,
 * and made each garbage collection dearer).
 */
type Exchange = { res?: ServerResponse | undefined };
const answering = (res: ServerResponse | undefined) => res !== undefined && !res.writableFinished;

function rawJsonError(status: number, message: string): string {
  const body = JSON.stringify({ error: message, status });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    ...API_SECURITY_HEADERS.map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * The HTTP server of an app, and its `stop` (see README.md), which resets no request a client has
 * sent: http.Server's close() closes idle keep-alive connections at once, while the client's next
 * request may be on its way.
 */
export function createHttpServer(app: Koa) {
  const server = createServer({ requireHostHeader: false }, app.callback());
  server.keepAliveTimeout = 65_000;
  const connections = new Map<Socket, Exchange>();
  /** Set by stop: closes the server (no more accepting) as soon as no connection is left. */
  let onLastClosed: (() => void) | undefined;
  server.on('connection', (socket: Socket) => {
    if (onLastClosed) {
      socket.destroy();
      return;
    }
    connections.set(socket, {});
    socket.once('close', () => {
      connections.delete(socket);
      if (connections.size === 0) onLastClosed?.();
    });
  });
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const exchange = connections.get(req.socket);
    if (exchange) {
      exchange.res = res;
      res.once('close', () => {
        if (exchange.res === res && req.complete) exchange.res = undefined;
      });
    }
    // A chunked body ends in trailers, which Node's parser may refuse once the answer is sent:
    // the connection then closes, and a proxy that had pooled it would lose the next request.
    if (req.headers['transfer-encoding'] !== undefined) res.setHeader('Connection', 'close');
  });
  /** Connections being closed after a parse error: Node may report more, the first decides. */
  const closing = new WeakSet<Socket>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (closing.has(socket)) return;
    closing.add(socket);
    const res = connections.get(socket)?.res;
    // An error in the body or trailers of a request the app has: a 400 would be a second answer
    // to it, which a proxy pooling the connection hands to the next client.
    if (!socket.writable || error.code === 'ECONNRESET' || (res && !res.req.complete)) {
      socket.destroy();
      return;
    }
    // The bytes in error begin a request of their own: the answer under way is sent first (a
    // write was applied), then the 400. Node's own handler would write it in that answer's place.
    const [status, message] = CLIENT_ERRORS.get(error.code) ?? [400, 'Malformed HTTP request'];
    const refuse = () =>
      socket.writable ? socket.end(rawJsonError(status, message)) : socket.destroy();
    if (answering(res)) res?.once('close', refuse);
    else refuse();
  });
  // Node hands CONNECT to this event, never to the app. Without an error listener on the socket,
  // a client's reset would end the process.
  server.on('connect', (_req, socket: Socket) => {
    socket.on('error', () => socket.destroy());
    socket.end(rawJsonError(405, 'Method CONNECT is not allowed'));
  });
  const stop = (idleMs = IDLE_GRACE_MS) =>
    new Promise<void>((resolve) => {
      server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
        res.setHeader('Connection', 'close');
      });
      for (const { res } of connections.values()) {
        if (res && !res.headersSent) res.setHeader('Connection', 'close');
      }
      const quiet = new WeakMap<Socket, { bytesRead: number; since: number }>();
      const sweep = () => {
        const now = performance.now();
        for (const [socket, { res }] of connections) {
          const seen = quiet.get(socket);
          const busy = answering(res) || socket.writableLength > 0;
          if (busy || !seen || seen.bytesRead !== socket.bytesRead) {
            quiet.set(socket, { bytesRead: socket.bytesRead, since: now });
          } else if (now - seen.since >= idleMs) socket.destroy();
        }
      };
      const sweeping = setInterval(sweep, Math.min(SWEEP_MS, idleMs));
      onLastClosed = () => {
        onLastClosed = () => {}; // still stopping: a connection arriving meanwhile is closed
        clearInterval(sweeping);
        server.close(() => resolve());
      };
      if (connections.size === 0) onLastClosed();
      else sweep();
    });
  return { server, stop };
}

export interface Started {
  app: Koa;
  config: { port: number; host: string; shutdownDelayMs?: number };
  /** Closes what the service opened (a database), once every connection is closed. */
  onClose?: () => Promise<void> | void;
  details?: Record<string, unknown>;
}

/**
 * A service's process: a logger, `start` (config, data, app), listen, and the graceful shutdown
 * the kit README describes; a failure exits 1.
 */
export async function runService(
  service: string,
  start: (logger: Logger) => Promise<Started> | Started,
): Promise<void> {
  const logger = createLogger(service);
  let started: Started | undefined;
  try {
    started = await start(logger);
    const { app, config, onClose = () => {}, details } = started;
    const { port, host, shutdownDelayMs = 0 } = config;
    const { server, stop } = createHttpServer(app);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, resolve);
    });
    // Serving (undefined), serving for the delay after a signal, or stopping (null).
    let delay: NodeJS.Timeout | null | undefined;
    const stopAccepting = async () => {
      delay = null;
      setTimeout(() => {
        logger.warn(`forcing exit ${FORCED_EXIT_MS / 1000} s after the server stopped accepting`);
        exitAfterLogs(logger, 1);
      }, FORCED_EXIT_MS);
      logger.info('no longer accepting connections');
      await stop();
      try {
        await onClose();
      } catch (error) {
        logger.error({ err: error }, 'closing failed');
        return exitAfterLogs(logger, 1);
      }
      logger.info('shut down');
      exitAfterLogs(logger, 0);
    };
    const shutdown = (signal: NodeJS.Signals) => {
      if (delay === undefined) {
        markDraining(app);
        logger.info({ signal, delayMs: shutdownDelayMs }, 'shutting down');
        delay = setTimeout(stopAccepting, shutdownDelayMs);
      } else if (delay) {
        clearTimeout(delay);
        void stopAccepting();
      }
    };
    process.on('SIGTERM', shutdown);
    process.on('SIGINT', shutdown);
    const { port: bound } = server.address() as AddressInfo;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
    logger.info({ url, ...details }, `${service} listening`);
  } catch (error) {
    logger.error({ error: (error as Error).message }, `${service} cannot start`);
    await Promise.resolve(started?.onClose?.()).catch(() => {});
    exitAfterLogs(logger, 1);
  }
}
