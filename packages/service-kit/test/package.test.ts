import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);
const KIT = fileURLToPath(new URL('..', import.meta.url));
const { peerDependencies } = JSON.parse(readFileSync(join(KIT, 'package.json'), 'utf8')) as {
  peerDependencies: Record<string, string>;
};
/** npm's settings from the `npm test` that runs this would apply to the installs below. */
const env = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)),
);
/** npm in `cwd`, installing a `file:` folder as a copy with its dependencies, as from a registry. */
const npm = (cwd: string, ...args: string[]) =>
  run('npm', [...args, '--install-links', '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd,
    env,
  });

/** Imports `specifier` in a process of its own from `cwd`: what it throws, or undefined. */
async function importFailure(cwd: string, specifier: string): Promise<string | undefined> {
  const script = `await import(${JSON.stringify(specifier)})`;
  return run(process.execPath, ['--input-type=module', '-e', script], { cwd, env }).then(
    () => undefined,
    (error: { stderr: string }) => error.stderr,
  );
}

// A service that installs the kit as a package of its own, not through the `file:` link whose
// folder holds the kit's own devDependencies: what it gets is only what package.json declares.
describe('the kit installed alone, as its package.json declares it', function () {
  this.timeout(180_000);
  const root = mkdtempSync(join(tmpdir(), 'kit-alone-'));
  const service = join(root, 'service');

  before(async () => {
    const kit = join(root, 'service-kit');
    for (const part of ['package.json', 'views', 'public', 'bin']) {
      cpSync(join(KIT, part), join(kit, part), { recursive: true });
    }
    await run(join(KIT, 'node_modules/.bin/tsc'), [
      '-p',
      join(KIT, 'tsconfig.build.json'),
      '--outDir',
      join(kit, 'dist'),
    ]);
    mkdirSync(service);
    writeFileSync(
      join(service, 'package.json'),
      JSON.stringify({ name: 'service', private: true, type: 'module' }),
    );
    await npm(service, 'install', '--omit=dev', `file:${kit}`);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('runs a service on its dependencies alone', async () => {
    expect(await importFailure(service, 'service-kit')).to.equal(undefined);
  });

  it('names the missing package when a service lacks a peer dependency of the testing helpers', async () => {
    const failure = await importFailure(service, 'service-kit/testing');
    expect(failure)
      .to.match(/ERR_MODULE_NOT_FOUND/)
      .and.match(/node_modules\/service-kit\/dist\/testing\//);
    const missing = /Cannot find package '([^']+)'/.exec(failure ?? '')?.[1];
    expect(Object.keys(peerDependencies)).to.include(missing);
  });

  it('loads the testing helpers once the service has their peer dependencies', async () => {
    const wanted = Object.entries(peerDependencies).map(([name, range]) => `${name}@${range}`);
    await npm(service, 'install', '--save-dev', ...wanted);
    const failure = await importFailure(service, 'service-kit/testing');
    expect(failure, failure).to.equal(undefined);
  });
});
