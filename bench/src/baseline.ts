import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RawResponse } from './load.js';
import { type RunningProcess, repoRoot, startProcess } from './process.js';

/** Headers that describe the connection or the moment, not the answer. */
const SKIPPED = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
]);

/** A bare node:http server, in its own process, answering exactly `response`. */
export function startBareServer(response: RawResponse): Promise<RunningProcess> {
  const headers = Object.fromEntries(
    Object.entries(response.headers).filter(([name]) => !SKIPPED.has(name)),
  );
  const file = join(mkdtempSync(join(tmpdir(), 'bare-')), 'response.json');
  writeFileSync(
    file,
    JSON.stringify({ status: response.status, headers, body: response.body.toString('base64') }),
  );
  return startProcess(join(repoRoot, 'bench'), ['--import', 'tsx', 'src/bare-server.ts'], {
    BARE_RESPONSE: file,
  });
}
