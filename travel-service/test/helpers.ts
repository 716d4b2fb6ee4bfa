import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AppOptions, apiDocument, createApp } from '../src/app.js';
import { readConfig } from '../src/config.js';
import { type Planned, planItineraries } from '../src/itineraries/itineraries.js';
import { loadDestinations } from '../src/itineraries/load.js';
import { Conformance } from './conformance.js';

export const TEST_SEED = 'travel-service tests';
export const seededDestinations = loadDestinations(readConfig({}).destinationsFile);
/** The itineraries of the seed file under a fixed seed: the same in every run. */
export const seededItineraries = planItineraries(seededDestinations, TEST_SEED);

export const conformance = new Conformance(
  apiDocument(seededItineraries) as never,
  (path) => path.startsWith('/api/') || ['/api', '/healthz', '/openapi.json'].includes(path),
);
/** supertest, with every API response checked against the OpenAPI document. */
export const request = conformance.request.bind(conformance);

/** A destination of the seeded itineraries that the tests count on. */
export function seededEntry(name: string): Planned {
  const entry = seededItineraries.find(name);
  if (!entry) throw new Error(`The seed file has no ${name}`);
  return entry;
}

export function seededApp(options: Partial<AppOptions> = {}) {
  return createApp({ itineraries: seededItineraries, ...options });
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
