import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppOptions, apiDocument, createApp } from '../src/app.js';
import type { CdInput } from '../src/cd/schema.js';
import type { LogFields, Logger } from '../src/log.js';
import { Conformance } from './conformance.js';

/** Every response of the JSON API (all but the /docs page and its assets) is checked. */
export const conformance = new Conformance(
  apiDocument() as never,
  (path) => path !== '/docs' && !path.startsWith('/assets/'),
);
/** supertest, with every API response checked against the OpenAPI document. */
export const request = conformance.request.bind(conformance);

/** The app listening on a free loopback port (raw HTTP and browser tests). */
export async function listen(options: AppOptions): Promise<{ url: string; server: Server }> {
  const server = createApp(options).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}

/** A fresh folder under the system's temporary folder, removed by the returned function. */
export function tempDir(prefix = 'cd-service-test-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

let counter = 0;

/** A valid CD input; override only what a test is about. */
export function makeCdInput(overrides: Partial<CdInput> = {}): CdInput {
  counter += 1;
  return {
    title: `Album ${counter}`,
    artist: 'Test Artist',
    genre: 'Test Genre',
    releaseYear: 2000,
    ...overrides,
  };
}

/** A logger that keeps its lines, to assert what was logged. */
export function captureLogger(): Logger & {
  lines: { level: string; message: string; fields?: LogFields }[];
} {
  const lines: { level: string; message: string; fields?: LogFields }[] = [];
  const write = (level: string) => (message: string, fields?: LogFields) => {
    lines.push({ level, message, fields });
  };
  return { lines, info: write('info'), warn: write('warn'), error: write('error') };
}

/** Asserts the JSON error body of every error response. */
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

/** The fields named by a validation error's details. */
export function detailFields(body: { details?: { field: string }[] }): string[] {
  return (body.details ?? []).map((detail) => detail.field);
}

/** Code-point order, the order both stores sort strings in. */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
