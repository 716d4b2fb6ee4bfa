import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type Koa from 'koa';
import { markDraining } from './health.js';
import { exitAfterLogs, type Logger } from './log.js';

/** From the moment the server stops accepting: longer than any request should take. */
const FORCED_EXIT_MS = 10_000;
/**
 * After the server stops accepting, how long a connection with nothing under way stays open:
 * a request a client sends on it meanwhile is answered (with `Connection: close`).
 */
export const IDLE_GRACE_MS = 2_000;
/** How often a stopping server looks for connections that have been idle that long. */
const SWEEP_MS = 100;

/** What Node's parser reports, answered as Node itself would (431, 408), else 400. */
const CLIENT_ERRORS = new Map<string | undefined, [number, string]>([
  ['HPE_HEADER_OVERFLOW', [431, 'The request headers are too large']],
  ['ERR_HTTP_REQUEST_TIMEOUT', [408, 'The request took too long to arrive']],
]);
const MALFORMED: [number, string] = [400, 'Malformed HTTP request'];

/**
 * Per connection, made once when it opens: the response to the last request Node handed to the
 * app, while it is being made or its request is still being read. A request only sets a field of
 * it: a WeakMap entry written per request (a new value each time) made every garbage collection
 * dearer; so did an answer kept once closed, which lived on into the old generation.
 */
interface Exchange {
  res?: ServerResponse | undefined;
}
const exchanges = new WeakMap<Socket, Exchange>();

function recordAnswer(req: IncomingMessage, res: ServerResponse) {
  const exchange = exchanges.get(req.socket);
  if (exchange) {
    exchange.res = res;
    res.once('close', () => {
      if (exchange.res === res && req.complete) exchange.res = undefined;
    });
  }
  // A chunked body ends in trailers, which Node's parser may refuse once the answer is sent
  // (Content-Length in them): the connection is then closed, and a proxy that had pooled it
  // would lose the next client's request on it. Such a connection carries no second request.
  if (req.headers['transfer-encoding'] !== undefined) res.setHeader('Connection', 'close');
}

/** An answer of this connection is being made, or is not yet all handed to the socket. */
function answering(socket: Socket): boolean {
  const res = exchanges.get(socket)?.res;
  return res !== undefined && !res.writableFinished;
}

/** The app has a request of this connection whose body or trailers are not all read. */
function reading(socket: Socket): boolean {
  const res = exchanges.get(socket)?.res;
  return res !== undefined && !res.req.complete;
}

/** Connections being closed after a parse error. */
const closing = new WeakSet<Socket>();

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
export function createHttpServer(app: Koa): Server {
  const server = createServer({ requireHostHeader: false }, app.callback());
  server.keepAliveTimeout = 65_000;
  server.on('connection', (socket: Socket) => exchanges.set(socket, {}));
  server.prependListener('request', recordAnswer);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // Node may report more errors from the bytes that follow: the first decides.
    if (closing.has(socket)) return;
    closing.add(socket);
    // An error in the body or trailers of a request the app has (a bad chunk, Content-Length in
    // the trailers, often found once it is answered): that request is broken, and a 400 would be
    // a second answer to it, which a proxy pooling the connection hands to the next client.
    if (!socket.writable || error.code === 'ECONNRESET' || reading(socket)) {
      socket.destroy();
      return;
    }
    // The bytes in error begin a request of their own: the requests before them keep their
    // answers (a write was applied). Once they are sent (Node then ends the connection itself),
    // the 400 goes where the connection is still open. (Node's default handler writes its 400
    // at once, in place of an answer not yet begun.)
    const [status, message] = CLIENT_ERRORS.get(error.code) ?? MALFORMED;
    const refuse = () =>
      socket.writable ? socket.end(rawJsonError(status, message)) : socket.destroy();
    const res = exchanges.get(socket)?.res;
    if (res && !res.writableFinished) res.once('close', refuse);
    else refuse();
  });
  // Node hands CONNECT to this event, never to the app; no route tunnels anything. The socket is
  // ours from here: without an error listener, a client's reset would end the process.
  server.on('connect', (_req, socket: Socket) => {
    socket.on('error', () => socket.destroy());
    socket.end(rawJsonError(405, 'Method CONNECT is not allowed'));
  });
  return server;
}

/**
 * How a server made by createHttpServer stops without resetting a request that a client has
 * already sent. Call it before `listen` (it keeps the server's connections); the function it
 * answers stops taking connections (one that arrives is closed at once, unanswered), answers
 * every request from then on, and those under way, with `Connection: close`, and closes a
 * connection only once it has had no request under way and read nothing for `idleMs`. Once no
 * connection is left it closes the server (a new connection is refused), and resolves.
 *
 * http.Server's close() waits until then: it closes every idle keep-alive connection at once
 * (Node >= 19), while the client's next request may already be on its way, and the client then
 * sees a reset.
 */
export function gracefulStop(server: Server): (idleMs?: number) => Promise<void> {
  const sockets = new Set<Socket>();
  let stopping = false;
  let onLastClosed = () => {};
  server.on('connection', (socket: Socket) => {
    if (stopping) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      if (stopping && sockets.size === 0) onLastClosed();
    });
  });
  return (idleMs = IDLE_GRACE_MS) =>
    new Promise<void>((resolve) => {
      stopping = true;
      server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
        res.setHeader('Connection', 'close');
      });
      /** Per connection: what it had read, and since when it has been quiet. */
      const quiet = new WeakMap<Socket, { bytesRead: number; since: number }>();
      const sweep = () => {
        const now = performance.now();
        for (const socket of sockets) {
          const seen = quiet.get(socket);
          // A request being read, an answer being made or still being sent: not idle.
          const busy = answering(socket) || socket.writableLength > 0;
          if (busy || !seen || seen.bytesRead !== socket.bytesRead) {
            quiet.set(socket, { bytesRead: socket.bytesRead, since: now });
          } else if (now - seen.since >= idleMs) socket.destroy();
        }
      };
      for (const socket of sockets) {
        const res = exchanges.get(socket)?.res;
        if (res && !res.headersSent) res.setHeader('Connection', 'close');
      }
      const sweeping = setInterval(sweep, Math.min(SWEEP_MS, idleMs));
      onLastClosed = () => {
        clearInterval(sweeping);
        server.close(() => resolve());
      };
      if (sockets.size === 0) onLastClosed();
      else sweep();
    });
}

export interface ServeOptions {
  port: number;
  host: string;
  logger: Logger;
  /** How long the server keeps serving and accepting after SIGTERM, /readyz answering 503. */
  shutdownDelayMs?: number;
  /** Run once every connection is closed (closing a database). */
  onClose?: () => Promise<void> | void;
}

/**
 * Listens; on SIGTERM or SIGINT: /readyz answers 503 at once, the server keeps serving and
 * accepting for `shutdownDelayMs` (for a proxy to stop sending), then stops as gracefulStop
 * says, runs onClose and exits 0; or 1 after 10 s more. A second signal ends the delay.
 * Answers the URL actually bound (PORT=0 picks a free port).
 */
export async function serve(
  app: Koa,
  { port, host, logger, shutdownDelayMs = 0, onClose = () => {} }: ServeOptions,
): Promise<string> {
  const server = createHttpServer(app);
  const stop = gracefulStop(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });

  let delay: NodeJS.Timeout | undefined;
  const stopAccepting = async () => {
    delay = undefined;
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
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      if (delay) {
        clearTimeout(delay);
        void stopAccepting();
      }
      return;
    }
    stopping = true;
    markDraining(app);
    logger.info({ signal, delayMs: shutdownDelayMs }, 'shutting down');
    delay = setTimeout(stopAccepting, shutdownDelayMs);
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  const { port: bound } = server.address() as AddressInfo;
  return `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
}
