import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { send } from '../../src/load.js';
import {
  type RunningProcess,
  repoRoot,
  type ServiceName,
  startService,
} from '../../src/process.js';
import { freshCdFile } from '../cd-store.js';

// containers/hostile-connections.mjs, straight to each compiled service: the smoke test runs the
// same script through the edge on Docker.
const script = join(repoRoot, 'containers', 'hostile-connections.mjs');

/** The bystanders' paths: an API answer and a page (or a probe), each service's own. */
const PATHS: Record<ServiceName, string[]> = {
  'games-service': ['/api/games/1', '/games/1'],
  'travel-service': ['/api/itineraries/kyoto', '/'],
  'cd-service': ['/cds?limit=5', '/livez'],
};

for (const name of ['games-service', 'travel-service', 'cd-service'] as const) {
  describe(`hostile connections straight to ${name}`, () => {
    let service: RunningProcess;
    before(async () => {
      service = await startService(name, { CD_DB_PATH: freshCdFile(), ITINERARY_SEED: 'hostile' });
    });
    after(() => service?.stop());

    it('keeps its process up, and gives every request its own answer, once', async () => {
      const { pid } = service;
      const run = await promisify(execFile)(
        process.execPath,
        [script, ...PATHS[name].map((path) => `${service.url}${path}`)],
        { env: { ...process.env, DURATION_S: '6', BYSTANDERS: '4' } },
      ).catch((failed: { stdout: string; code: number }) => failed);
      const report = JSON.parse(run.stdout);
      expect(service.exited(), 'the process ended').to.equal(false);
      expect(service.child.pid).to.equal(pid);
      expect(report.bystanders.foreign, run.stdout).to.equal(0);
      expect(report.bystanders.failures, run.stdout).to.deep.equal({});
      expect(report.pipelined.wrong, run.stdout).to.equal(0);
      expect(report.doubleAnswers, run.stdout).to.equal(0);
      expect(report.bystanders.own).to.be.greaterThan(0);
      expect(Object.keys(report.attacks)).to.have.length(12);
      expect((await send(service.url, { path: '/livez' })).status).to.equal(200);
    });
  });
}
