import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type Koa from 'koa';
import { exitAfterLogs, type Logger } from './log.js';

/** Longer than any request should take; a drained server exits long before. */
const FORCED_EXIT_MS = 10_000;

/** What Node's parser reports, answered as Node itself would (431, 408), else 400. */
const CLIENT_ERRORS = new Map<string | undefined, [number, string]>([
  ['HPE_HEADER_OVERFLOW', [431, 'The request headers are too large']],
  ['ERR_HTTP_REQUEST_TIMEOUT', [408, 'The request took too long to arrive']],
]);
const MALFORMED: [number, string] = [400, 'Malformed HTTP request'];

/** The answer a connection is sending: Node keeps it on the socket, and its own clientError handler reads it there. */
const answerUnderWay = (socket: Socket) =>
  (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;

/** An error answered on the socket itself, before Koa: the JSON error body, then the socket is closed. */
function rawJsonError(status: number, message: string): string {
  const body = JSON.stringify({ error: message, status });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    "Content-Security-Policy: default-src 'none'",
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * The HTTP server of an app: keep-alive longer than common load balancers', and what Node
 * would answer itself (a malformed request, a request without Host, CONNECT) answered with the
 * JSON error body.
 */
export function createHttpServer(
  app: Koa,
  beforeEach?: (req: IncomingMessage, res: ServerResponse) => void,
): Server {
  const handle = app.callback();
  const server = createServer(
    { requireHostHeader: false },
    beforeEach
      ? (req, res) => {
          beforeEach(req, res);
          return handle(req, res);
        }
      : handle,
  );
  server.keepAliveTimeout = 65_000;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // Bytes written into an answer already under way would corrupt it: close instead, as Node does.
    if (socket.writable && error.code !== 'ECONNRESET' && !answerUnderWay(socket)?.headersSent) {
      const [status, message] = CLIENT_ERRORS.get(error.code) ?? MALFORMED;
      socket.end(rawJsonError(status, message));
    } else socket.destroy();
  });
  // Node hands CONNECT to this event, never to the app; no route tunnels anything.
  server.on('connect', (_req, socket: Socket) => {
    socket.end(rawJsonError(405, 'Method CONNECT is not allowed'));
  });
  return server;
}

export interface ServeOptions {
  port: number;
  host: string;
  logger: Logger;
  /** Run once every connection is closed (closing a database). */
  onClose?: () => Promise<void> | void;
}

/**
 * Listens; on SIGTERM/SIGINT stops accepting, answers the requests already received with
 * `Connection: close`, closes idle keep-alive connections at once, runs onClose, and exits 0
 * once drained. Answers the URL actually bound (PORT=0 picks a free port).
 */
export async function serve(
  app: Koa,
  { port, host, logger, onClose = () => {} }: ServeOptions,
): Promise<string> {
  const open = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  let closing = false;
  const server = createHttpServer(app, (_req, res) => {
    if (closing) res.setHeader('Connection', 'close');
    open.add(res);
    res.once('close', () => open.delete(res));
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });

  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal, inFlight: open.size }, 'shutting down');
    setTimeout(() => {
      logger.warn({ inFlight: open.size }, `forcing exit after ${FORCED_EXIT_MS / 1000} s`);
      exitAfterLogs(logger, 1);
    }, FORCED_EXIT_MS).unref();
    server.close(async () => {
      try {
        await onClose();
      } catch (error) {
        logger.error({ err: error }, 'closing failed');
        return exitAfterLogs(logger, 1);
      }
      logger.info('shut down');
      exitAfterLogs(logger, 0);
    });
    for (const res of open) if (!res.headersSent) res.setHeader('Connection', 'close');
    server.closeIdleConnections();
    // Connections that never sent a byte (a browser's preconnect, a balancer's TCP check) are
    // not idle to Node, and would hold the exit until the forced one.
    for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  const { port: bound } = server.address() as AddressInfo;
  return `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
}
