import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AppOptions, apiDocument, createApp } from '../src/app.js';
import { Catalogue } from '../src/catalogue/catalogue.js';
import { loadGames } from '../src/catalogue/load.js';
import { readConfig } from '../src/config.js';
import { Conformance } from './conformance.js';

export const seededCatalogue = new Catalogue(loadGames(readConfig({}).gamesFile));

export const conformance = new Conformance(
  apiDocument(seededCatalogue) as never,
  (path) => path.startsWith('/api/') || ['/api', '/healthz', '/openapi.json'].includes(path),
);
/** supertest, with every API response checked against the OpenAPI document. */
export const request = conformance.request.bind(conformance);

export function seededApp(options: Partial<AppOptions> = {}) {
  return createApp({ catalogue: seededCatalogue, ...options });
}

/** The app listening on a free loopback port, for the browser tests. */
export async function listen(
  options: Partial<AppOptions> = {},
): Promise<{ url: string; server: Server }> {
  const server = seededApp(options).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}

/** Asserts the JSON error body of every error response. */
export function expectErrorBody(
  res: { status: number; headers: Record<string, string>; body: unknown },
  status: number,
) {
  if (res.status !== status)
    throw new Error(`expected status ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  if (!/^application\/json/.test(res.headers['content-type'] ?? '')) {
    throw new Error(`expected a JSON error, got ${res.headers['content-type']}`);
  }
  const body = res.body as { error?: unknown; status?: unknown };
  if (typeof body.error !== 'string' || body.error === '' || body.status !== status) {
    throw new Error(`not the error body: ${JSON.stringify(body)}`);
  }
}
