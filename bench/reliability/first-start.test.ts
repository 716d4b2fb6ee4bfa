import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { repoRoot } from '../src/process.js';
import { groupAlive, groupEnded, spawnMake } from './make.js';

const PACKAGES = ['packages/service-kit', 'a-service', 'b-service'];

/**
 * A copy of the Makefile and scripts/ beside three packages never installed. Its `npm ci` (the
 * NPM make is given) waits until a second package's install has started and `release` exists,
 * so an install finishes only when two ran at once; then it installs tsx, which each service's
 * server (a few lines) is started with.
 */
function freshClone() {
  const root = mkdtempSync(join(tmpdir(), 'first-start-'));
  cpSync(join(repoRoot, 'Makefile'), join(root, 'Makefile'));
  cpSync(join(repoRoot, 'scripts'), join(root, 'scripts'), { recursive: true });
  for (const pkg of PACKAGES) {
    mkdirSync(join(root, pkg, 'src'), { recursive: true });
    writeFileSync(join(root, pkg, 'package.json'), '{}');
    writeFileSync(join(root, pkg, 'package-lock.json'), '{}');
    writeFileSync(
      join(root, pkg, 'src', 'server.ts'),
      `console.log('${pkg} listening');\nsetInterval(() => {}, 1000);\n`,
    );
  }
  const npm = join(root, 'fake-npm');
  writeFileSync(
    npm,
    `#!/usr/bin/env bash
set -e
[ "$1" = ci ]
touch "${root}/started.\${PWD##*/}"
until [ "$(ls "${root}" | grep -c '^started[.]')" -ge 2 ] && [ -e "${root}/release" ]; do sleep 0.1; done
mkdir -p node_modules
ln -s "${join(repoRoot, 'bench', 'node_modules', 'tsx')}" node_modules/tsx
echo '{}' > node_modules/.package-lock.json
echo "installed \${PWD##*/}"
`,
  );
  chmodSync(npm, 0o755);
  return { root, npm };
}

describe('the first make start installs what is missing, two at a time, saying how it goes', function () {
  this.timeout(120_000);

  it('says when each install starts and, while they run, which still do; then starts the services', async () => {
    const { root, npm } = freshClone();
    const started = spawnMake('start', {
      cwd: root,
      args: [`NPM=${npm}`],
      env: { PORT: '0', PROGRESS_SECONDS: '1' },
    });
    try {
      // Two installs at once, the third waiting: only two can start before one ends.
      await started.until((output) =>
        /still running: a-service packages\/service-kit\n/.test(output),
      );
      expect(started.output()).not.to.include('-- b-service');
      expect(started.output()).to.include(
        '-- packages/service-kit: npm ci (first install), started',
      );
      expect(started.output()).to.include('-- a-service: npm ci (first install), started');
      writeFileSync(join(root, 'release'), '');
      await started.until((output) =>
        ['a-service', 'b-service'].every((service) => output.includes(`${service} listening`)),
      );
      expect(started.output()).to.include('npm ci (first install): all 3 packages passed.');
      for (const pkg of PACKAGES)
        expect(existsSync(join(root, pkg, 'node_modules', '.package-lock.json'))).to.equal(true);
      process.kill(-started.pgid, 'SIGINT');
      await started.exited;
      expect(started.output().split('\n')).to.include('stopped');
    } finally {
      if (!(await groupEnded(started.pgid))) process.kill(-started.pgid, 'SIGKILL');
    }
  });

  it('installs nothing once installed: the next start goes straight to the services', async () => {
    const { root, npm } = freshClone();
    writeFileSync(join(root, 'release'), '');
    for (const pkg of PACKAGES) {
      mkdirSync(join(root, pkg, 'node_modules'));
      symlinkSync(
        join(repoRoot, 'bench', 'node_modules', 'tsx'),
        join(root, pkg, 'node_modules', 'tsx'),
      );
      writeFileSync(join(root, pkg, 'node_modules', '.package-lock.json'), '{}');
    }
    const started = spawnMake('start', { cwd: root, args: [`NPM=${npm}`], env: { PORT: '0' } });
    try {
      await started.until((output) => output.includes('b-service listening'));
      expect(started.output()).not.to.include('npm ci');
      process.kill(-started.pgid, 'SIGINT');
      await started.exited;
    } finally {
      if (!(await groupEnded(started.pgid))) process.kill(-started.pgid, 'SIGKILL');
    }
  });

  it('Ctrl-C while installing stops the installs and prints stopped', async () => {
    const { root, npm } = freshClone();
    const started = spawnMake('start', { cwd: root, args: [`NPM=${npm}`], env: { PORT: '0' } });
    try {
      await started.until((output) =>
        output.includes('-- a-service: npm ci (first install), started'),
      );
      process.kill(-started.pgid, 'SIGINT');
      await started.exited;
      expect(started.output().split('\n')).to.include('stopped');
      expect(await groupEnded(started.pgid), 'an install is still running').to.equal(true);
      expect(started.output()).not.to.include('listening');
    } finally {
      if (groupAlive(started.pgid)) process.kill(-started.pgid, 'SIGKILL');
    }
  });
});
