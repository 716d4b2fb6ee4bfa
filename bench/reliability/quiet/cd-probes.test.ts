import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { pageUnderLoad } from '../../src/cd-paging.js';
import { type RunningProcess, repoRoot, startService } from '../../src/process.js';
import { writeSyntheticCds } from '../../src/synthetic.js';
import { freshCdFile } from '../cd-store.js';

/** 1,000 times the seed's 61 CDs, with the seed's field sizes. */
const CDS = 61_000;
const CLIENTS = 64;
const SECONDS = Number(process.env.PROBE_LOAD_SECONDS ?? 15);

/**
 * How long the edge waits for a replica's probe before it counts as failed (`timeout check` of
 * proxy/haproxy.cfg): two failures take the replica out of the rotation. This is the contract
 * the probes keep, not a speed claim.
 */
function edgeProbeTimeoutMs(): number {
  const config = readFileSync(join(repoRoot, 'proxy', 'haproxy.cfg'), 'utf8');
  const seconds = /^\s*timeout check (\d+)s$/m.exec(config)?.[1];
  if (!seconds) throw new Error('no `timeout check <N>s` in proxy/haproxy.cfg');
  return Number(seconds) * 1000;
}

describe(`cd-service at ${CDS.toLocaleString('en-US')} CDs, ${CLIENTS} clients reading pages of 1,000`, function () {
  this.timeout((SECONDS + 240) * 1000);
  let service: RunningProcess;

  before(async () => {
    const seed = writeSyntheticCds(mkdtempSync(join(tmpdir(), 'cd-probes-')), CDS);
    service = await startService('cd-service', { CD_DB_PATH: freshCdFile(), CD_SEED_FILE: seed });
  });
  after(() => service?.stop());

  it("answers every /readyz and /livez within the edge's probe timeout, and every page", async () => {
    const probeTimeoutMs = edgeProbeTimeoutMs();
    // The heaviest pages: 1,000 CDs, at offsets up to 10,000, with every filter and sort.
    const report = await pageUnderLoad(service.url, {
      clients: CLIENTS,
      seconds: SECONDS,
      count: CDS,
      probeTimeoutMs,
      limits: [1000],
    });
    console.log(
      `      ${report.requests} pages; probes (max): /readyz ${report.probes.readyz.maxMs} ms, /livez ${report.probes.livez.maxMs} ms; event-loop delay p99 ${report.eventLoopDelay?.p99Ms} ms, max ${report.eventLoopDelay?.maxMs} ms`,
    );
    expect(report.probes.readyz.count, 'probes of /readyz').to.be.greaterThan(0);
    expect(report.probes.readyz.failed, `/readyz not 200 within ${probeTimeoutMs} ms`).to.equal(0);
    expect(report.probes.livez.failed, `/livez not 200 within ${probeTimeoutMs} ms`).to.equal(0);
    expect(report.statuses, 'statuses of the pages').to.have.all.keys('200');
    expect(service.exited()).to.equal(false);
  });
});
