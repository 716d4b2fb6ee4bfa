import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { PENDING_LOG_BYTES } from '../src/log.js';

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

  for (const reader of ['has gone', 'stopped reading'] as const) {
    it(`exits with the code when stdout's reader ${reader}, dropping the lines it cannot write`, async () => {
      // Logs after SIGTERM, as serve does, then exits: pino's own flush at exit would retry forever.
      const script = `
        import { createLogger, exitAfterLogs } from ${JSON.stringify(LOG_MODULE)};
        const logger = createLogger('test');
        setInterval(() => {}, 1000);
        process.on('SIGTERM', () => {
          for (let i = 0; i < 300; i++) logger.info({ pad: 'x'.repeat(1000) }, 'line');
          exitAfterLogs(logger, 3);
        });
        logger.info('ready');
      `;
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const exited = once(child, 'exit');
      await once(child.stdout, 'data');
      if (reader === 'has gone') child.stdout.destroy();
      else child.stdout.pause();
      child.kill('SIGTERM');
      const guard = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const [code, signal] = await exited;
      clearTimeout(guard);
      expect({ code, signal }).to.deep.equal({ code: 3, signal: null });
    });
  }
});

describe('createLogger on stdout', () => {
  it('holds a bounded amount for a reader that stopped, then says how many lines it dropped', async () => {
    // 20,000 lines of 1 KB while the reader reads nothing, then the reader resumes.
    const script = `
      import { createLogger } from ${JSON.stringify(LOG_MODULE)};
      const logger = createLogger('test');
      for (let i = 0; i < 20000; i++) logger.info({ i, pad: 'x'.repeat(1000) }, 'line');
      process.stderr.write('logged');
    `;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout.pause();
    await once(child.stderr, 'data');
    let text = '';
    child.stdout
      .on('data', (chunk) => {
        text += chunk;
      })
      .resume();
    await once(child, 'close');
    const lines = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const kept = lines.filter((line) => line.message === 'line');
    const said = lines.at(-1);
    expect(said).to.include({ level: 'warn', dropped: 20000 - kept.length });
    expect(said.message).to.match(/^log lines dropped/);
    // What stdout took before it stopped (the socket's buffers) and what waited, at most.
    expect(text.length).to.be.below(PENDING_LOG_BYTES + 1024 * 1024);
  });
});
