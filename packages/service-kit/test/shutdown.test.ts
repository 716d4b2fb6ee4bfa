import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { markDraining } from '../src/health.js';
import { createHttpServer, gracefulStop } from '../src/serve.js';
import { fixtureService } from './fixture.js';

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
  const server: Server = createHttpServer(service.app);
  const stop = gracefulStop(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { ...service, server, stop, port };
}

describe('probes', () => {
  it('/livez answers 200 while the process runs, never stored', async () => {
    const { app, request } = fixtureService();
    const res = await request(app.callback()).get('/livez').expect(200);
    expect(res.body).to.deep.equal({ status: 'ok' });
    expect(res.headers['cache-control']).to.equal('no-store');
    markDraining(app);
    await request(app.callback()).get('/livez').expect(200);
  });

  it('/readyz answers 200, then 503 unavailable while the check fails, and 503 draining once the process stops', async () => {
    const { app, health, request } = fixtureService();
    const server = app.callback();
    const ready = await request(server).get('/readyz').expect(200);
    expect(ready.body).to.deep.equal({ status: 'ok' });
    expect(ready.headers['cache-control']).to.equal('no-store');
    expect(ready.headers['content-type']).to.match(/^application\/json/);
    health.up = false;
    expect((await request(server).get('/readyz').expect(503)).body).to.deep.equal({
      status: 'unavailable',
    });
    health.up = true;
    markDraining(app);
    const draining = await request(server).get('/readyz').expect(503);
    expect(draining.body).to.deep.equal({ status: 'draining' });
    expect(draining.headers['cache-control']).to.equal('no-store');
    // Another app in the same process is not draining.
    await request(fixtureService().app.callback()).get('/readyz').expect(200);
  });

  it('are kit operations of the OpenAPI document, beside /healthz', async () => {
    const { app, request } = fixtureService();
    const { body } = await request(app.callback()).get('/openapi.json').expect(200);
    expect(body.paths).to.include.keys('/healthz', '/livez', '/readyz');
    expect(body.paths['/readyz'].get.responses).to.include.keys('200', '503');
  });
});

describe('gracefulStop', () => {
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
const LOG_MODULE = fileURLToPath(new URL('../src/log.ts', import.meta.url));
const FIXTURE_MODULE = fileURLToPath(new URL('./fixture.ts', import.meta.url));

/** The fixture service in a process of its own, served by `serve` with this shutdown delay. */
async function servedProcess(shutdownDelayMs: number) {
  const script = `
    import { serve } from ${JSON.stringify(SERVE_MODULE)};
    import { createLogger } from ${JSON.stringify(LOG_MODULE)};
    import { fixtureService } from ${JSON.stringify(FIXTURE_MODULE)};
    const logger = createLogger('fixture');
    const url = await serve(fixtureService().app, {
      port: 0, host: '127.0.0.1', logger, shutdownDelayMs: ${shutdownDelayMs},
    });
    logger.info({ url }, 'listening');
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
  await seen('listening');
  const url = lines.find((line) => line.url)?.url as string;
  return { child, url, port: Number(new URL(url).port), lines, seen, exit };
}

describe('serve on SIGTERM', () => {
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
