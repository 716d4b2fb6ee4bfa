import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { repoRoot } from '../src/process.js';
import { startFromSources } from './from-sources.js';

/**
 * Every example of a service README's "Examples" section, run as pasted (bash and curl) against
 * the service started from its sources on the shipped data, each block on a fresh start (a fresh
 * SQLite file for cd-service), with the settings its README gives that block.
 */
const READMES = {
  'games-service': [{}],
  'travel-service': [{ ITINERARY_SEED: 'demo' }],
  'cd-service': [{}, { CD_API_TOKEN: 'secret' }],
} as const;
const DEFAULT_PORTS = { 'games-service': 3001, 'travel-service': 3002, 'cd-service': 3003 };

interface Step {
  command: string;
  /** The `# ` lines right below the command: lines of its output, in order, `...` any text. */
  expected: string[];
}

/** The sh blocks of the README's "## Examples" section. */
function exampleBlocks(readme: string): string[] {
  const section = readme.split(/^## /m).find((part) => part.startsWith('Examples\n')) ?? '';
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
}

/**
 * A block's steps: a command (its `\` continuations included), then the `# ` lines that follow
 * it at once. A `#` line after a blank line is prose.
 */
function stepsOf(block: string): Step[] {
  const steps: Step[] = [];
  let step: Step | undefined;
  let continued = false;
  for (const line of block.split('\n')) {
    if (line.trim() === '') step = undefined;
    else if (continued && step) step.command += `\n${line}`;
    else if (line.startsWith('#')) step?.expected.push(line.replace(/^# ?/, ''));
    else {
      step = { command: line, expected: [] };
      steps.push(step);
    }
    continued = line.endsWith('\\');
  }
  return steps;
}

/** Whether the output holds the expected lines, in order; a header's name in any case. */
function missingLine(expected: string[], output: string): string | undefined {
  const lines = output.replaceAll('\r', '').split('\n');
  let at = 0;
  for (const wanted of expected) {
    const pattern = wanted
      .split('...')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    const header = /^[A-Za-z][A-Za-z0-9-]*: /.test(wanted);
    const regex = new RegExp(`^${pattern}$`, header ? 'i' : '');
    while (at < lines.length && !regex.test(lines[at] ?? '')) at++;
    if (at === lines.length) return wanted;
    at++;
  }
  return undefined;
}

/** Runs the steps in one bash, as pasted one after the other; each step's stdout and status. */
async function runSteps(steps: Step[]): Promise<{ output: string; status: number }[]> {
  const dir = mkdtempSync(join(tmpdir(), 'readme-examples-'));
  const script = steps
    .map(
      (step, i) =>
        `{\n${step.command}\n} >"${dir}/${i}.out" 2>"${dir}/${i}.err"; echo $? >"${dir}/${i}.status"`,
    )
    .join('\n');
  writeFileSync(join(dir, 'script.sh'), script);
  const bash = spawn('bash', [join(dir, 'script.sh')], { stdio: 'inherit' });
  await once(bash, 'exit');
  return steps.map((_, i) => ({
    output: readFileSync(join(dir, `${i}.out`), 'utf8'),
    status: Number(readFileSync(join(dir, `${i}.status`), 'utf8')),
  }));
}

describe("the service READMEs' examples do what they say, pasted as they are, on the shipped data", function () {
  this.timeout(120_000);

  for (const [service, settings] of Object.entries(READMES)) {
    const blocks = exampleBlocks(readFileSync(join(repoRoot, service, 'README.md'), 'utf8'));

    it(`${service}: every example block is checked here`, () => {
      expect(blocks).to.have.length(settings.length);
    });

    blocks.forEach((block, n) => {
      const env: Record<string, string> = { ...settings[n] };
      const names = Object.keys(env).map((name) => `${name}=${env[name]}`);
      it(`${service}: examples, block ${n + 1}${names.length ? ` (${names.join(' ')})` : ''}`, async () => {
        const started = await startFromSources(service, env);
        try {
          const local = `http://127.0.0.1:${DEFAULT_PORTS[service as keyof typeof DEFAULT_PORTS]}`;
          const steps = stepsOf(block).map((step) => ({
            ...step,
            command: step.command.replaceAll(local, started.url),
          }));
          const results = await runSteps(steps);
          steps.forEach((step, i) => {
            const { output, status } = results[i] ?? { output: '', status: -1 };
            const what = `${step.command}\ngave (exit ${status}):\n${output}`;
            expect(status, what).to.equal(0);
            expect(
              missingLine(step.expected, output),
              `a line it does not give, of\n${what}`,
            ).to.equal(undefined);
          });
        } finally {
          await started.stop();
        }
      });
    });
  }
});
