// Starts the servers a route is compared with, each in a process of its own, from the service's
// captured answer: the bare node:http replay and the plain Koa replay.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RawResponse } from './load.js';
import { repoRoot, type ServiceName, serviceNodeFlags, startProcess } from './process.js';
import type { CapturedFile } from './servers/captured.js';

/** Headers that describe the connection or the moment, not the answer. */
const SKIPPED = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
]);

/** Writes the answer, in a new folder under `dir`, where the servers read it (CAPTURED). */
export function writeCaptured(response: RawResponse, dir: string): string {
  const headers = Object.fromEntries(
    Object.entries(response.headers).filter(([name]) => !SKIPPED.has(name)),
  );
  const captured: CapturedFile = {
    status: response.status,
    headers,
    body: response.body.toString('base64'),
  };
  const file = join(mkdtempSync(join(dir, 'captured-')), 'response.json');
  writeFileSync(file, JSON.stringify(captured));
  return file;
}

/**
 * The two servers a route is compared with, from the service's captured answer (`captured`,
 * written by writeCaptured). Each runs with the Node flags of the service's `npm start` (its
 * heap settings), so that the service differs from them by its code alone.
 */
export function comparisonServers(service: ServiceName, captured: string) {
  const nodeFlags = serviceNodeFlags(service);
  const start = (script: string, env: Record<string, string>) =>
    startProcess(
      join(repoRoot, 'bench'),
      [...nodeFlags, '--import', 'tsx', `src/servers/${script}`],
      { ...env, CAPTURED: captured },
    );
  return {
    /** A bare node:http server answering the captured bytes to any request. */
    bare: () => start('bare.ts', {}),
    /** A plain Koa 3 + @koa/router app answering the captured bytes at `routePath`. */
    koa: (routePath: string) => start('koa-replay.ts', { ROUTE_PATH: routePath }),
  };
}
