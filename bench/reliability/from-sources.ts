import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../src/process.js';

/**
 * The service from its sources on a free port, as `npm run dev` runs it (cd-service on a fresh
 * SQLite file unless CD_DB_PATH is given); resolves with its URL and its `stop`.
 */
export async function startFromSources(service: string, env: Record<string, string>) {
  const child = spawn('node', ['--conditions=source', '--import', 'tsx', 'src/server.ts'], {
    cwd: join(repoRoot, service),
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_REQUESTS: 'false',
      MONGODB_URI: '',
      CD_DB_PATH: join(mkdtempSync(join(tmpdir(), 'readme-examples-')), 'cds.sqlite'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      const found = /"url":"(http:[^"]+)"[^\n]*listening/.exec(output)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`${service} exited (${code}):\n${output}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
