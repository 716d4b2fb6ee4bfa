// What the replay servers share: the service's captured answer (written by
// replay.ts to the file named by CAPTURED) and the log line that tells the bench their URL.
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Captured {
  status: number;
  /** The service's headers, names in lower case, without those of the connection or moment. */
  headers: Record<string, string>;
  body: Buffer;
}

/** The file format: the body in base64, so that any bytes survive. */
export interface CapturedFile {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function readCaptured(file = process.env.CAPTURED): Captured {
  if (!file) throw new Error('CAPTURED names no file');
  const { status, headers, body } = JSON.parse(readFileSync(file, 'utf8')) as CapturedFile;
  return { status, headers, body: Buffer.from(body, 'base64') };
}

/** Listens on a free port of 127.0.0.1 and logs the URL as the services do; SIGTERM closes it. */
export function listen(server: Server, what: string): void {
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    console.log(JSON.stringify({ message: `${what} listening`, url: `http://127.0.0.1:${port}` }));
  });
  process.on('SIGTERM', () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
