import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const HEALTHCHECK = fileURLToPath(new URL('../../bin/healthcheck.js', import.meta.url));

/** The exit code of the healthcheck run with PORT=port. */
function healthcheck(port: number): Promise<number> {
  return new Promise((resolve) => {
    const env = { ...process.env, PORT: String(port) };
    execFile(process.execPath, [HEALTHCHECK], { env }, (error) =>
      resolve(error ? Number(error.code) : 0),
    );
  });
}

/** A server on 127.0.0.1 whose GET /healthz answers `status`; any other path answers 200. */
async function serving(status: number): Promise<Server> {
  const server = createServer((request, answer) => {
    answer.statusCode = request.url === '/healthz' ? status : 200;
    answer.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
const portOf = (server: Server) => (server.address() as AddressInfo).port;

describe('bin/healthcheck.js (the images’ HEALTHCHECK)', () => {
  it('exits 0 when GET /healthz on PORT answers 200', async () => {
    const server = await serving(200);
    try {
      expect(await healthcheck(portOf(server))).to.equal(0);
    } finally {
      server.close();
    }
  });

  it('exits 1 when /healthz answers anything else (a 503, a redirect)', async () => {
    for (const status of [503, 500, 302]) {
      const server = await serving(status);
      try {
        expect(await healthcheck(portOf(server)), String(status)).to.equal(1);
      } finally {
        server.close();
      }
    }
  });

  it('exits 1 when nothing listens on PORT', async () => {
    const server = await serving(200);
    const port = portOf(server);
    await new Promise((resolve) => server.close(resolve));
    expect(await healthcheck(port)).to.equal(1);
  });
});
