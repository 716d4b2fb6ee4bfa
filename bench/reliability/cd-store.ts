import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../src/process.js';

type Database = {
  prepare(sql: string): { all(): Record<string, unknown>[]; get(...args: unknown[]): Record<string, unknown> | undefined };
  pragma(sql: string, options?: { simple: boolean }): unknown;
  close(): void;
};

/** cd-service's own better-sqlite3, read-only, to look at a store from outside the service. */
export function cdDatabase(file: string): Database {
  const require = createRequire(join(repoRoot, 'cd-service', 'package.json'));
  const Database = require('better-sqlite3');
  return new Database(file, { readonly: true });
}

export const freshCdFile = () => join(mkdtempSync(join(tmpdir(), 'cd-reliability-')), 'cds.sqlite');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Every stored row that breaks the CD schema (checked independently of the service's code). */
export function invalidStoredCds(db: Database): string[] {
  const maxYear = new Date().getUTCFullYear() + 1;
  const text = (value: unknown) => typeof value === 'string' && value.length > 0 && value === value.trim() && [...value].length <= 200;
  const bad: string[] = [];
  for (const row of db.prepare('SELECT * FROM cds').all()) {
    const year = row.release_year ?? row.releaseYear;
    const ok =
      UUID.test(String(row.id)) &&
      text(row.title) &&
      text(row.artist) &&
      text(row.genre) &&
      Number.isInteger(year) &&
      (year as number) >= 1800 &&
      (year as number) <= maxYear &&
      ISO.test(String(row.created_at ?? row.createdAt)) &&
      ISO.test(String(row.updated_at ?? row.updatedAt));
    if (!ok) bad.push(JSON.stringify(row));
  }
  return bad;
}
