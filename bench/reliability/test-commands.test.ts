import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { repoRoot } from '../src/process.js';

const run = promisify(execFile);

/** The test files a mocha command in `pkg` would run (mocha's dry run: nothing is executed). */
async function filesRun(pkg: string, command: string[]): Promise<string[]> {
  const report = join(mkdtempSync(join(tmpdir(), 'test-commands-')), 'report.json');
  const dryRun = ['--dry-run', '--reporter', 'json', '--reporter-option', `output=${report}`];
  const [program = 'npx', ...args] = command;
  await run(program, [...args, ...(program === 'npm' ? ['--'] : []), ...dryRun], {
    cwd: join(repoRoot, pkg),
  });
  const { tests } = JSON.parse(readFileSync(report, 'utf8')) as { tests: { file: string }[] };
  return [...new Set(tests.map((test) => test.file.slice(join(repoRoot, pkg).length + 1)))];
}

describe("CONTRIBUTING's test commands run what they say", function () {
  this.timeout(120_000);

  // One file of each package: CONTRIBUTING's own example for games.
  const subsets = {
    'games-service': 'test/http/api.test.ts',
    'travel-service': 'test/http/kit-wiring.test.ts',
    'cd-service': 'test/http/kit-wiring.test.ts',
    'packages/service-kit': 'test/cors.test.ts',
    bench: 'reliability/test-commands.test.ts',
  };
  for (const [pkg, file] of Object.entries(subsets)) {
    it(`${pkg}: npx mocha ${file} runs that file alone`, async () => {
      expect(await filesRun(pkg, ['npx', 'mocha', file])).to.deep.equal([file]);
    });
  }

  it('npm test still runs every test file', async () => {
    const files = await filesRun('packages/service-kit', ['npm', 'test']);
    expect(files).to.include.members([
      'test/cors.test.ts',
      'test/app.test.ts',
      'test/e2e/layout.test.ts',
    ]);
  });
});
