import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { chooseChromium, launchBrowser, missingChromium } from '../../src/testing/browser.js';

const WHAT_TO_DO =
  /install it \(apt-get install chromium-headless-shell\) or set CHROMIUM_PATH to a Chromium binary$/;

describe('browser tests without Chromium', () => {
  it('says what to install when there is no executable file at the path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kit-chromium-'));
    try {
      const notExecutable = join(dir, 'chromium');
      writeFileSync(notExecutable, '');
      chmodSync(notExecutable, 0o644);
      for (const path of ['/nonexistent', dir, notExecutable]) {
        const problem = missingChromium(path);
        expect(problem, path).to.match(WHAT_TO_DO);
        expect(problem).to.include(`No Chromium at ${path} for the browser tests`);
      }
      expect(missingChromium(process.execPath)).to.equal(undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails to launch with that line, not with Playwright’s error', async () => {
    const failure = await launchBrowser('/nonexistent').then(
      () => expect.fail('launched a browser at /nonexistent'),
      (error: Error) => error,
    );
    expect(failure.message).to.match(WHAT_TO_DO);
  });

  it('prints the line once, before any test runs, and leaves the browser tests pending', async function () {
    this.timeout(60_000);
    const { stdout } = await promisify(execFile)(
      join('node_modules', '.bin', 'mocha'),
      [
        '--no-config',
        '--node-option',
        'import=tsx',
        '--extension',
        'ts',
        'test/e2e/docs-page.test.ts',
        'test/e2e/layout.test.ts',
      ],
      { env: { ...process.env, CHROMIUM_PATH: '/nonexistent', NO_COLOR: '1' } },
    );
    const lines = stdout.split('\n');
    const said = lines.filter((line) => line.includes('No Chromium at /nonexistent'));
    expect(said).to.deep.equal([
      'No Chromium at /nonexistent for the browser tests: install it ' +
        '(apt-get install chromium-headless-shell) ' +
        'or set CHROMIUM_PATH to a Chromium binary. Until then they are skipped (pending).',
    ]);
    const firstSuite = lines.findIndex((line) => line.includes('in Chromium'));
    expect(lines.indexOf(said[0] as string)).to.be.below(firstSuite);
    expect(stdout).to.not.include('Failed to launch');
    expect(stdout).to.match(/\n {2}0 passing .*\n {2}\d+ pending/);
  });
});

describe('chooseChromium', () => {
  it('takes CHROMIUM_PATH, else the first candidate installed, else the first', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kit-chromium-'));
    try {
      const [shell, full, absent] = [join(dir, 'shell'), join(dir, 'full'), join(dir, 'absent')];
      for (const path of [shell, full]) {
        writeFileSync(path, '');
        chmodSync(path, 0o755);
      }
      const candidates = [absent, full, shell];
      expect(chooseChromium({}, candidates)).to.equal(full);
      expect(chooseChromium({ CHROMIUM_PATH: '' }, candidates)).to.equal(full);
      expect(chooseChromium({ CHROMIUM_PATH: absent }, candidates)).to.equal(absent);
      expect(chooseChromium({}, [absent, `${dir}/other`])).to.equal(absent);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
