import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { createHttpServer } from '../src/serve.js';
import { captureLogger, listen } from '../src/testing/http.js';
import { fixtureService } from './fixture.js';
import { rawExchange, servedFixture } from './raw-http.js';

/** A raw keep-alive connection: one answer at a time, and whether the server closed it. */
async function openConnection(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let received = '';
  let waiting: (() => void) | undefined;
  socket.on('data', (chunk) => {
    received += chunk;
    waiting?.();
  });
  const closed = new Promise<string>((resolve) => {
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    socket.on('close', () => resolve('closed'));
  });
  socket.on('close', () => waiting?.());
  /** The next whole answer (headers and Content-Length bytes of body), or what came before a close. */
  const answer = async (): Promise<string> => {
    for (;;) {
      const end = received.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(received)?.[1] ?? 0);
      if (end >= 0 && received.length >= end + 4 + length) {
        const whole = received.slice(0, end + 4 + length);
        received = received.slice(whole.length);
        return whole;
      }
      if (socket.destroyed) return received;
      await new Promise<void>((resolve) => {
        waiting = resolve;
      });
    }
  };
  return {
    write: (text: string) => socket.write(text),
    request: (path: string) => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      return answer();
    },
    answer,
    closed,
    socket,
  };
}

async function listening(options: Parameters<typeof fixtureService>[0] = {}) {
  const service = fixtureService(options);
  const { server, stop } = createHttpServer(service.app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { ...service, server, stop, port };
}

describe("createHttpServer's stop", () => {
  it('keeps an idle keep-alive connection open: a request sent on it after the stop is answered with Connection: close', async () => {
    const { stop, port } = await listening();
    const client = await openConnection(port);
    expect(await client.request('/api/items')).to.match(/^HTTP\/1\.1 200/);
    // A long grace: only the request closes this connection.
    const stopped = stop(60_000);
    const answer = await client.request('/api/items');
    expect(answer).to.match(/^HTTP\/1\.1 200/);
    expect(answer).to.match(/\r\nconnection: close\r\n/i);
    expect(await client.closed).to.equal('closed');
    await stopped;
  });

  it('stops listening as its last connection closes, so that a new client is refused, not accepted and reset', async () => {
    const { server, stop, port } = await listening();
    const accepted: Socket[] = [];
    server.on('connection', (socket: Socket) => accepted.push(socket));
    const client = await openConnection(port);
    expect(await client.request('/api/items')).to.match(/^HTTP\/1\.1 200/);
    const stopped = stop(60_000);
    expect(server.listening).to.equal(true);
    const [last] = accepted;
    client.socket.end();
    // The server's own 'close' listener came first: by this one, it must have stopped listening.
    await once(last as Socket, 'close');
    expect(server.listening).to.equal(false);
    await stopped;
  });

  it('answers a request whose first bytes arrived before the stop with Connection: close', async () => {
    const { stop, port } = await listening();
    const client = await openConnection(port);
    client.write('GET /api/items HTTP/1.1\r\nHost: local');
    const stopped = stop(60_000);
    client.write('host\r\n\r\n');
    const answer = await client.answer();
    expect(answer).to.match(/^HTTP\/1\.1 200/);
    expect(answer).to.match(/\r\nconnection: close\r\n/i);
    await stopped;
  });

  it('answers a request that never sent a byte before the stop, on a connection opened before it', async () => {
    const { stop, port } = await listening();
    const client = await openConnection(port);
    const stopped = stop(60_000);
    const answer = await client.request('/readyz');
    expect(answer).to.match(/^HTTP\/1\.1 200/);
    expect(answer).to.match(/\r\nconnection: close\r\n/i);
    await stopped;
  });

  it('closes a connection that arrives during the stop without answering it', async () => {
    const { stop, port } = await listening();
    const open = await openConnection(port);
    const stopped = stop(60_000);
    const late = await openConnection(port).catch((error: NodeJS.ErrnoException) => error);
    if (!(late instanceof Error)) {
      expect(await late.request('/api/items')).to.equal('');
      expect(await late.closed).to.be.oneOf(['closed', 'ECONNRESET']);
    }
    expect(await open.request('/api/items')).to.match(/\r\nconnection: close\r\n/i);
    await stopped;
  });

  it('closes a connection once it has been idle for the grace period, then resolves; new connections are refused', async () => {
    const { stop, port } = await listening();
    const used = await openConnection(port);
    expect(await used.request('/api/items')).to.match(/^HTTP\/1\.1 200/);
    const silent = await openConnection(port);
    await stop(50);
    expect(await used.closed).to.equal('closed');
    expect(await silent.closed).to.equal('closed');
    const refused = connect(port, '127.0.0.1');
    const [error] = (await once(refused, 'error').catch((e) => [e])) as [NodeJS.ErrnoException];
    expect(error.code).to.equal('ECONNREFUSED');
  });
});

const SERVE_MODULE = fileURLToPath(new URL('../src/serve.ts', import.meta.url));
const FIXTURE_MODULE = fileURLToPath(new URL('./fixture.ts', import.meta.url));

/** The fixture service in a process of its own, run by `runService` with this shutdown delay. */
async function servedProcess(shutdownDelayMs: number) {
  const script = `
    import { runService } from ${JSON.stringify(SERVE_MODULE)};
    import { fixtureService } from ${JSON.stringify(FIXTURE_MODULE)};
    await runService('fixture', () => ({
      app: fixtureService().app,
      config: { port: 0, host: '127.0.0.1', shutdownDelayMs: ${shutdownDelayMs} },
    }));
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: { message: string; url?: string }[] = [];
  let rest = '';
  const seen = (message: string) =>
    new Promise<void>((resolve) => {
      const look = () => {
        if (lines.some((line) => line.message === message)) resolve();
        else child.stdout.once('data', () => setImmediate(look));
      };
      look();
    });
  child.stdout.on('data', (chunk) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() ?? '';
    for (const part of parts) lines.push(JSON.parse(part));
  });
  const exit = once(child, 'exit') as Promise<[number | null]>;
  await seen('fixture listening');
  const url = lines.find((line) => line.url)?.url as string;
  return { child, url, port: Number(new URL(url).port), lines, seen, exit };
}

describe('runService on SIGTERM', () => {
  it('answers /readyz 503 at once, keeps serving and accepting for SHUTDOWN_DELAY_MS, then stops accepting and exits 0', async () => {
    const served = await servedProcess(60_000);
    const before = await openConnection(served.port);
    expect(await before.request('/readyz')).to.match(/^HTTP\/1\.1 200/);
    served.child.kill('SIGTERM');
    await served.seen('shutting down');
    // Within the delay: not ready, yet serving as before, new connections included.
    const draining = await before.request('/readyz');
    expect(draining).to.match(/^HTTP\/1\.1 503/);
    expect(draining).to.include('{"status":"draining"}');
    expect(draining).not.to.match(/connection: close/i);
    const fresh = await openConnection(served.port);
    const live = await fresh.request('/livez');
    expect(live).to.match(/^HTTP\/1\.1 200/);
    expect(live).not.to.match(/connection: close/i);
    // A second signal ends the delay.
    served.child.kill('SIGTERM');
    await served.seen('no longer accepting connections');
    const last = await before.request('/api/items');
    expect(last).to.match(/^HTTP\/1\.1 200/);
    expect(last).to.match(/connection: close/i);
    const [code] = await served.exit;
    expect(code).to.equal(0);
    expect(served.lines.map((line) => line.message)).to.include('shut down');
  });
});

describe('createHttpServer', () => {
  const served = servedFixture();

  it('answers CONNECT with 405 and the JSON error body', async () => {
    const answer = await rawExchange(
      served.url,
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
    );
    expect(answer).to.match(/^HTTP\/1\.1 405/);
    expect(answer).to.include('"status":405');
  });

  it('stays up when a client resets its CONNECT connection once answered', async () => {
    const served405 = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(served.url).port), '127.0.0.1', () =>
        socket.write('CONNECT x:1 HTTP/1.1\r\nHost: x:1\r\n\r\n'),
      );
      socket.on('error', reject);
      socket.once('data', (chunk) => {
        socket.resetAndDestroy();
        resolve(String(chunk));
      });
    });
    expect(served405).to.match(/^HTTP\/1\.1 405/);
    // The reset reaches the server's socket after its answer: an unhandled error there would
    // fail this test as an uncaught exception.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(
      await rawExchange(served.url, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    ).to.match(/^HTTP\/1\.1 200/);
  });

  for (const [what, rest] of [
    ['Content-Length in its trailers', '0\r\ncontent-length: 5\r\n\r\n'],
    ['Transfer-Encoding in its trailers', '0\r\ntransfer-encoding: chunked\r\n\r\n'],
    ['a malformed chunk', 'zz\r\n\r\n'],
  ] as const) {
    it(`gives a request with ${what}, found once it is answered, that one answer and closes`, async () => {
      const connection = await openConnection(Number(new URL(served.url).port));
      connection.write(
        'GET /api/items HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nAAAAA\r\n',
      );
      expect(await connection.answer()).to.match(/^HTTP\/1\.1 200/);
      connection.write(rest);
      await connection.closed;
      // Whatever came after the answer: a 400 here is what a pooling proxy hands the next client.
      expect(await connection.answer()).to.equal('');
    });
  }

  it('closes the connection of a request with a chunked body once it is answered', async () => {
    // Its trailers may be refused after the answer: a proxy must not pool the connection.
    const connection = await openConnection(Number(new URL(served.url).port));
    connection.write(
      'GET /api/items HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nAAAAA\r\n0\r\n\r\n',
    );
    expect(await connection.answer()).to.match(/^HTTP\/1\.1 200[\s\S]*\r\nconnection: close\r\n/i);
    expect(await connection.closed).to.equal('closed');
  });

  it('answers pipelined requests each once, in order', async () => {
    const connection = await openConnection(Number(new URL(served.url).port));
    const ids = ['first', 'second', 'third'];
    connection.write(
      ids.map((id) => `GET /api/items HTTP/1.1\r\nHost: x\r\nX-Request-Id: ${id}\r\n\r\n`).join(''),
    );
    for (const id of ids) {
      const answer = await connection.answer();
      expect(answer).to.match(/^HTTP\/1\.1 200/);
      expect(/x-request-id: (\S+)/i.exec(answer)?.[1]).to.equal(id);
    }
    connection.socket.destroy();
  });

  it('answers an Upgrade request as a plain one, on a connection that stays usable', async () => {
    const connection = await openConnection(Number(new URL(served.url).port));
    connection.write(
      'GET /api/items HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
    );
    expect(await connection.answer()).to.match(/^HTTP\/1\.1 200/);
    expect(await connection.request('/api/items')).to.match(/^HTTP\/1\.1 200/);
    connection.socket.destroy();
  });

  it('answers a malformed request with the JSON error body', async () => {
    const answer = await rawExchange(served.url, 'NOT HTTP AT ALL\r\n\r\n');
    expect(answer).to.match(/^HTTP\/1\.1 400/);
    expect(answer).to.include('"error":"Malformed HTTP request"');
  });

  it("answers request headers over Node's limit with 431 and the JSON error body", async () => {
    const answer = await rawExchange(
      served.url,
      `GET /api/items HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20 * 1024)}\r\n\r\n`,
    );
    expect(answer).to.match(/^HTTP\/1\.1 431/);
    expect(answer).to.include('"status":431');
  });

  it('never writes an error into an answer under way: the bytes in error wait for it to end', async () => {
    const { port } = new URL(served.url);
    const socket = connect(Number(port), '127.0.0.1', () =>
      socket.write('GET /streaming HTTP/1.1\r\nHost: x\r\n\r\n'),
    );
    let received = '';
    await new Promise<void>((resolve) =>
      socket.on('data', (chunk) => {
        received += chunk;
        if (received.includes('first part')) resolve();
      }),
    );
    socket.write('NOT HTTP AT ALL\r\n\r\n');
    // The answer never ends (the fixture's stream stays open), so nothing may follow it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(socket.destroyed).to.equal(false);
    expect(received).to.match(/^HTTP\/1\.1 200/);
    expect(received).not.to.include('HTTP/1.1 400');
    socket.destroy();
  });

  for (const [what, bytes] of [
    [
      'a request followed by malformed bytes',
      'GET /api/items HTTP/1.1\r\nHost: x\r\n\r\n GARBAGE\r\n\r\n',
    ],
    [
      'a request whose body is a byte longer than its Content-Length',
      'GET /api/items HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}}\r\n\r\n',
    ],
  ] as const) {
    it(`answers ${what}, in one packet, before closing the connection`, async () => {
      // The app ran the request before the bad bytes (a write would be applied): it is answered.
      const answer = await rawExchange(
        served.url,
        bytes.replace('Host: x', 'Host: x\r\nX-Request-Id: whole'),
      );
      expect(answer).to.match(/^HTTP\/1\.1 200/);
      expect(answer).to.match(/x-request-id: whole/i);
      expect(answer.match(/^HTTP\/1\.1 \d+/gm)).to.have.length(1);
    });
  }

  it('logs a client that leaves in the middle of an answer, and prints no stack trace', async () => {
    const logger = captureLogger();
    logger.level = 'debug';
    const listening = await listen(fixtureService({ logger }).app);
    const printed: unknown[] = [];
    const consoleError = console.error;
    console.error = (...args: unknown[]) => printed.push(args);
    try {
      const { port } = new URL(listening.url);
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write('GET /streaming HTTP/1.1\r\nHost: x\r\n\r\n'),
      );
      socket.once('data', () => socket.destroy());
      const left = 'the client left before the answer was sent';
      while (!logger.lines.some((line) => line.message === left)) {
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      console.error = consoleError;
      listening.server.close();
    }
    expect(printed).to.deep.equal([]);
    expect(logger.lines.filter((line) => line.level === 'error')).to.deep.equal([]);
  });
});
