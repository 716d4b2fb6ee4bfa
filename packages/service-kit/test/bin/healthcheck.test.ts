import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const HEALTHCHECK = fileURLToPath(new URL('../../bin/healthcheck.cjs', import.meta.url));

/** The exit code and stderr of the healthcheck run with PORT=port. */
function healthcheck(port: number | ''): Promise<{ code: number; said: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, PORT: String(port) };
    execFile(process.execPath, [HEALTHCHECK], { env }, (error, _stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, said: stderr.trim() }),
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

describe('bin/healthcheck.cjs (the images’ HEALTHCHECK)', () => {
  it('exits 0 when GET /healthz on PORT answers 200', async () => {
    const server = await serving(200);
    try {
      expect(await healthcheck(portOf(server))).to.deep.equal({ code: 0, said: '' });
    } finally {
      server.close();
    }
  });

  it('exits 1 when /healthz answers anything else (a 503, a redirect)', async () => {
    for (const status of [503, 500, 302]) {
      const server = await serving(status);
      try {
        expect(await healthcheck(portOf(server))).to.deep.equal({
          code: 1,
          said: `GET /healthz answered ${status}`,
        });
      } finally {
        server.close();
      }
    }
  });

  it('exits 1 when nothing listens on PORT, or PORT is not set, saying so', async () => {
    const server = await serving(200);
    const port = portOf(server);
    await new Promise((resolve) => server.close(resolve));
    expect(await healthcheck(port)).to.deep.equal({
      code: 1,
      said: `GET /healthz: connect ECONNREFUSED 127.0.0.1:${port}`,
    });
    expect(await healthcheck('')).to.deep.equal({
      code: 1,
      said: 'PORT is not set: the port of the service to check',
    });
  });
});
