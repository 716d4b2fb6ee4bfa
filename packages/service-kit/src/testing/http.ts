import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type Koa from 'koa';
import { createLogger, type Logger } from '../log.js';
import { createHttpServer } from '../serve.js';

/** The app listening on a free loopback port, on the server `serve` makes (raw HTTP, browsers). */
export async function listen(app: Koa): Promise<{ url: string; server: Server }> {
  const { server } = createHttpServer(app);
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}

/** Asserts the JSON error body of an error response. */
export function expectErrorBody(
  res: { status: number; headers: Record<string, string>; body: unknown },
  status: number,
) {
  if (res.status !== status) {
    throw new Error(`expected status ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  }
  if (!/^application\/json/.test(res.headers['content-type'] ?? '')) {
    throw new Error(`expected a JSON error, got ${res.headers['content-type']}`);
  }
  const body = res.body as { error?: unknown; status?: unknown };
  if (typeof body.error !== 'string' || body.error === '' || body.status !== status) {
    throw new Error(`not the error body: ${JSON.stringify(body)}`);
  }
}

export interface LogLine {
  level: string;
  message: string;
  [field: string]: unknown;
}

/** A real logger whose lines are kept, to assert what was logged. */
export function captureLogger(service = 'test'): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return Object.assign(createLogger(service, sink), { lines });
}

/** What a test reads of a response: supertest's answers have it. */
interface TextResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  text: string;
}

/**
 * Asks with `count` unknown parameters (`k0=v&k1=v&...`) and asserts the 400: the first five
 * named, the rest counted, in a body far smaller than the query. Returns the answer.
 */
export async function expectManyUnknownParameters(
  ask: (query: string) => PromiseLike<TextResponse>,
  count = 2000,
): Promise<TextResponse> {
  const query = Array.from({ length: count }, (_, i) => `k${i}=v`).join('&');
  const res = await ask(query);
  expectErrorBody(res, 400);
  const { details, error } = res.body as { details: { field: string }[]; error: string };
  const named = details.map((detail) => detail.field).join(',');
  if (named !== 'k0,k1,k2,k3,k4') throw new Error(`names ${named}, not k0 to k4`);
  if (!error.endsWith(`; and ${(count - 5).toLocaleString('en-US')} more`)) {
    throw new Error(`does not count the rest: ${error}`);
  }
  if (res.text.length >= query.length / 4) {
    throw new Error(`a body of ${res.text.length} bytes for a query of ${query.length}`);
  }
  return res;
}
