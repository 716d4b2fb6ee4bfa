import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const LOG_MODULE = fileURLToPath(new URL('../src/log.ts', import.meta.url));

/** Runs a process that logs `lines` lines of 1 KB, then calls exitAfterLogs with code 3. */
function logThenExit(lines: number) {
  const script = `
    import { createLogger, exitAfterLogs } from ${JSON.stringify(LOG_MODULE)};
    const logger = createLogger('test');
    for (let i = 0; i < ${lines}; i++) logger.info({ i, pad: 'x'.repeat(1000) }, 'line');
    logger.info('last');
    exitAfterLogs(logger, 3);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const messages: string[] = [];
  let rest = '';
  child.stdout.on('data', (chunk) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() ?? '';
    for (const part of parts) messages.push(JSON.parse(part).message);
  });
  return { messages, closed: once(child, 'close').then(([code]) => code as number) };
}

describe('exitAfterLogs', () => {
  it('exits with the code once every line is written, the last one last', async () => {
    const run = logThenExit(2000);
    expect(await run.closed).to.equal(3);
    expect(run.messages).to.have.length(2001);
    expect(run.messages.at(-1)).to.equal('last');
  });
});
