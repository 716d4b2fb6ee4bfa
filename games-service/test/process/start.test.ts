import { spawn } from 'node:child_process';
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';

/** The service's process with a heap of `heapMb` (its memory limit outside a container). */
function startService(heapMb: number, env: NodeJS.ProcessEnv) {
  const args = [`--max-old-space-size=${heapMb}`, '--conditions=source', '--import', 'tsx'];
  const child = spawn(process.execPath, [...args, 'src/server.ts'], {
    env: { ...process.env, PORT: '0', LOG_REQUESTS: 'false', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk;
    if (output.includes('games-service listening')) child.kill('SIGTERM');
  });
  return new Promise<{ code: number | null; lines: { message?: string; error?: string }[] }>(
    (resolve) =>
      child.on('exit', (code) =>
        resolve({
          code,
          lines: output
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line)),
        }),
      ),
  );
}

describe('the start with a games file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'games-start-'));

  it('refuses a file too large for the memory the process may use, naming the file, its size and the limit', async () => {
    // Refused from its size alone, before a byte of it is read: a sparse file of 1 GB will do.
    const file = join(dir, 'games-too-large.json');
    writeFileSync(file, '');
    truncateSync(file, 2 ** 30);
    const { code, lines } = await startService(256, { GAMES_FILE: file });
    expect(code).to.equal(1);
    const refusal = lines.find((line) => line.message === 'games-service cannot start');
    expect(refusal?.error).to.match(
      new RegExp(
        `^${file}: 1,024 MB of games would take about [0-9,]+ MB once loaded, more than the [0-9,]+ MB this process may use`,
      ),
    );
  });

  it('starts on the seed file with the same memory', async () => {
    const { lines } = await startService(256, {});
    expect(lines.map((line) => line.message)).to.include('games-service listening');
  });
});
