import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
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

const contributing = readFileSync(join(repoRoot, 'CONTRIBUTING.md'), 'utf8');

describe("CONTRIBUTING's test commands run what they say", function () {
  this.timeout(120_000);

  // CONTRIBUTING's own example (for games), and one file of each other package.
  const example =
    /`npx mocha (test\/[^`]+)`/.exec(contributing)?.[1] ?? 'missing from CONTRIBUTING';
  const subsets = {
    'games-service': example,
    'travel-service': 'test/http/kit-wiring.test.ts',
    'cd-service': 'test/http/kit-wiring.test.ts',
    'packages/service-kit': 'test/cors.test.ts',
    bench: 'reliability/contributing.test.ts',
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

  it("bench: npm test, and CI's two parts of it together, run every reliability test file once", async function () {
    // Three dry runs, each loading every file of the suite: minutes where CI runs this beside
    // its other tests, at a lower priority.
    this.timeout(300_000);
    const all = readdirSync(join(repoRoot, 'bench', 'reliability'), { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => `reliability/${file}`)
      .sort();
    const sorted = (files: string[]) => [...files].sort();
    expect(sorted(await filesRun('bench', ['npm', 'test']))).to.deep.equal(all);
    const quiet = await filesRun('bench', ['npm', 'run', 'test:quiet']);
    const beside = await filesRun('bench', ['npm', 'run', 'test:beside']);
    expect(quiet.every((file) => file.startsWith('reliability/quiet/'))).to.equal(true);
    expect(sorted([...quiet, ...beside])).to.deep.equal(all);
  });
});

describe("CONTRIBUTING's list of the places a new route touches", () => {
  const section =
    contributing.split(/^## /m).find((part) => part.startsWith('Adding a route')) ?? '';
  const named = [...section.matchAll(/`([\w./-]+\.(?:ts|mjs|pug|cfg))`/g)].map(
    (match) => match[1] ?? '',
  );

  it('names files', () => {
    expect(named).to.include.members(['test/http/openapi.test.ts', 'proxy/haproxy.cfg']);
  });

  for (const path of new Set(named)) {
    it(`${path} exists${path.startsWith('bench/') || path.startsWith('containers/') || path.startsWith('proxy/') ? '' : ' in a service'}`, () => {
      const places = ['.', 'games-service', 'travel-service', 'cd-service'];
      expect(places.some((place) => existsSync(join(repoRoot, place, path)))).to.equal(true);
    });
  }
});
