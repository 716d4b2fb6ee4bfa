// Two builds of the services, each route alternated between them in one run, judged by the CPU
// time each service process spends per request (/proc/<pid>/stat: user + system, every thread).
// On a shared machine a core's speed moves by half within minutes, which req/s follows and CPU
// time per request, taken in rounds of a second side by side, much less.
//
//   node --import tsx src/compare-trees.ts OLD_TREE [NEW_TREE] [--rounds 12] [--seconds 1] [--only PATH] [--no-pin]
//
// Each tree is a clone of this repository after `make build`; NEW_TREE defaults to this one.
// For every route of src/routes.ts: the old service, the new one and plain Koa replaying the new
// one's answer, loaded in turn; each line prints their medians and, for the budget, the median
// over the rounds of new/old (the two measured seconds apart), as a change of the ratio to Koa.
import { mkdtemp } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { alternate, median, type Round, type RunSettings } from './compare.js';
import { send } from './load.js';
import {
  pinToCores,
  type RunningProcess,
  repoRoot,
  type ServiceName,
  serviceNodeFlags,
  startProcess,
} from './process.js';
import { comparisonServers, writeCaptured } from './replay.js';
import { ROUTES } from './routes.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '12' },
    seconds: { type: 'string', default: '1' },
    only: { type: 'string' },
    'no-pin': { type: 'boolean', default: false },
  },
});
const [oldTree, newTree = repoRoot] = positionals;
if (!oldTree) {
  console.error(
    'usage: compare-trees.ts OLD_TREE [NEW_TREE] [--rounds N] [--seconds S] [--only PATH] [--no-pin]',
  );
  process.exit(2);
}
const settings: RunSettings = {
  rounds: Number(values.rounds),
  seconds: Number(values.seconds),
  warmSeconds: 1,
  connections: 32,
};

// With two cores or more, the services run on the first and the load (this process) on the
// others: neither waits for the other's core, and each service's threads stay on one.
const cores = availableParallelism();
const pinned = cores >= 2 && !values['no-pin'];
if (pinned) pinToCores(process.pid, `1-${cores - 1}`);
const onServiceCore = (running: RunningProcess) => {
  if (pinned) pinToCores(running.pid, '0');
  return running;
};
console.log(
  pinned
    ? `services on CPU 0, the load on CPU 1-${cores - 1}`
    : 'services and the load share the CPUs',
);

const dir = await mkdtemp(join(tmpdir(), 'compare-trees-'));
const startIn = (tree: string, service: ServiceName, name: string) =>
  startProcess(join(tree, service), [...serviceNodeFlags(service), 'dist/server.js'], {
    ITINERARY_SEED: 'bench',
    CD_DB_PATH: join(dir, `${name}-${service}.sqlite`),
    CD_SEED: 'true',
  }).then(onServiceCore);

async function compareRoute(
  service: ServiceName,
  path: string,
  old: RunningProcess,
  current: RunningProcess,
) {
  const request = { path };
  const captured = writeCaptured(await send(current.url, request), dir);
  const koa = onServiceCore(
    await comparisonServers(service, captured).koa(path.split('?')[0] ?? '/'),
  );
  try {
    const contender = (server: RunningProcess) => ({
      url: server.url,
      request,
      cpuUs: server.cpuUs,
    });
    const runs = await alternate(
      { old: contender(old), new: contender(current), koa: contender(koa) },
      settings,
    );
    const cpu = (rounds: Round[]) => rounds.map((round) => round.cpuUsPerRequest ?? Number.NaN);
    const [o, n, k] = [runs.old, runs.new, runs.koa].map((rounds) => median(cpu(rounds))) as [
      number,
      number,
      number,
    ];
    const newCpu = cpu(runs.new);
    const newOverOld = median(cpu(runs.old).map((us, i) => (newCpu[i] ?? Number.NaN) / us));
    const change = (1 / newOverOld - 1) * 100;
    console.log(
      `${service} GET ${path}: CPU µs per request old ${o.toFixed(1)}, new ${n.toFixed(1)}, plain Koa ${k.toFixed(1)}; ` +
        `ratio to Koa old ${(k / o).toFixed(3)}, new ${(k / n).toFixed(3)}; new/old ${newOverOld.toFixed(3)} (paired median): ratio change ${change >= 0 ? '+' : ''}${change.toFixed(1)}%`,
    );
  } finally {
    await koa.stop();
  }
}

for (const service of ['games-service', 'travel-service', 'cd-service'] as const) {
  const routes = ROUTES.filter(
    (route) => route.service === service && (!values.only || route.path === values.only),
  );
  if (routes.length === 0) continue;
  const old = await startIn(oldTree, service, 'old');
  const current = await startIn(newTree, service, 'new').catch(async (error) => {
    await old.stop();
    throw error;
  });
  try {
    for (const route of routes) await compareRoute(service, route.path, old, current);
  } finally {
    await old.stop();
    await current.stop();
  }
}
