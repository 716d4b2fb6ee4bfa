import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BadRequest, type ErrorDetail } from 'service-kit';
import { Conformance } from 'service-kit/testing';
import { cdApi } from '../src/app.js';
import { newRecord } from '../src/cd/records.js';
import type { CdInput } from '../src/cd/schema.js';

export { captureLogger, expectErrorBody, expectManyUnknownParameters } from 'service-kit/testing';

/**
 * Every response but the /docs page, its assets and /metrics (Prometheus' text) is checked: the
 * JSON API's, and the JSON errors of every other path.
 */
export const conformance = new Conformance(
  cdApi().document as never,
  (path) => path !== '/docs' && path !== '/metrics' && !path.startsWith('/assets/'),
);
/** supertest, with every API response checked against the OpenAPI document. */
export const request = conformance.request.bind(conformance);

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

/** The fields named by a validation error's details. */
export function detailFields(body: { details?: { field: string }[] }): string[] {
  return (body.details ?? []).map((detail) => detail.field);
}

/** Code-point order, the order both stores sort strings in. */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A new record of a valid CD, as the service would store it. */
export const makeRecord = () => newRecord(makeCdInput(), randomUUID(), new Date());

/** What a promise was rejected with (it must be). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** The value `read` gives, or the details of the 400 it throws (a route's parameters). */
export function checked<T>(
  read: () => T,
): { ok: true; value: T } | { ok: false; details: ErrorDetail[] } {
  try {
    return { ok: true, value: read() };
  } catch (error) {
    if (!(error instanceof BadRequest)) throw error;
    return { ok: false, details: error.details ?? [] };
  }
}
