// make bench: each service as a real process, each route against plain Koa replaying its bytes
// and a bare node:http replay (measure-route.ts); what each layer costs, from a CPU profile
// (layer-costs.ts); CD writes; growth with the data; start time and memory. Prints RESULTS.md;
// --write writes it. See README.md.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { RunSettings } from './compare.js';
import { measureConditionalList } from './conditional-list.js';
import { profileLayers } from './layer-costs.js';
import { measureRoute } from './measure-route.js';
import { repoRoot, type ServiceName, startService } from './process.js';
import {
  type BenchResults,
  keptSections,
  LAYER_COSTS,
  loadAverageNow,
  type ProcessRow,
  report,
  scaleResults,
} from './report.js';
import { ROUTES } from './routes.js';
import {
  atScale,
  CD_QUERIES,
  CDS_LARGE,
  GAMES_QUERIES,
  SCALE_HEADING,
  scaleSection,
} from './scale.js';
import { sendVaried } from './varied.js';
import { WAL_HEADING, walSection, walUnderWrites } from './wal.js';
import { measureMix, measurePosts } from './writes.js';

const { values: options } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    scale: { type: 'boolean', default: false },
    wal: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    only: { type: 'string' },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string', default: '32' },
  },
});
const quick = options.quick;
const settings: RunSettings = {
  rounds: Number(options.rounds ?? (quick ? 1 : 5)),
  seconds: Number(options.seconds ?? (quick ? 1 : 3)),
  warmSeconds: quick ? 0.5 : 1,
  connections: Number(options.connections),
};
/** How long each CPU profile loads its service. */
const PROFILE_SECONDS = quick ? 2 : 8;
/** Starts of each service measured, for the median start time. */
const STARTS = quick ? 1 : 3;
/** The WAL under steady writes: 5 minutes at the large CD size (--quick: 20 s at 1,000 CDs). */
const WAL_RUN = quick ? { cds: 1_000, seconds: 20 } : { cds: CDS_LARGE, seconds: 300 };
const SERVICES: ServiceName[] = ['games-service', 'travel-service', 'cd-service'];
const wanted = (service: ServiceName) => !options.only || service.startsWith(options.only);
const tmp = mkdtempSync(join(tmpdir(), 'bench-'));
const log = (line: string) => process.stderr.write(`${line}\n`);

/**
 * What every service is started with: request logs off (startProcess), a fixed seed for the
 * itineraries, and a fresh SQLite file seeded with the 61 sample CDs.
 */
const BASE_ENV = { ITINERARY_SEED: 'bench' };
const serviceEnv = (name: string): Record<string, string> => ({
  ...BASE_ENV,
  CD_DB_PATH: join(tmp, `${name}.sqlite`),
  CD_SEED: 'true',
});

async function measureService(service: ServiceName, results: BenchResults): Promise<void> {
  const env = serviceEnv('cds');
  const running = await startService(service, env);
  const row: ProcessRow = { service, startMs: [running.startMs], rssStartMb: running.rssMb() };
  results.processes.push(row);
  try {
    for (const route of ROUTES) {
      if (route.service !== service || (quick && !route.quick)) continue;
      await part(`${service} GET ${route.path}`, results, async () => {
        results.routes.push(await measureRoute(route, running, settings, tmp));
      });
    }
    if (service === 'cd-service') {
      await part('cd-service durable POST /cds', results, async () => {
        results.posts = await measurePosts(running.url, settings);
      });
      await part('cd-service 90/10 read/write mix', results, async () => {
        results.mix = await measureMix(running.url, settings);
      });
      await part('cd-service conditional list GET (304) against the 200', results, async () => {
        results.conditionalList = await measureConditionalList(running.url, settings);
      });
    }
    row.rssLoadedMb = running.rssMb();
    log(`${service}: varied requests`);
    row.variedStatuses = (await sendVaried(running.url, service)).statuses;
    row.rssVariedMb = running.rssMb();
    row.rssFileMb = running.rssMb('RssFile');
  } finally {
    await running.stop();
  }
  // A CPU profile of the service on each of its representative routes (those of --quick).
  for (const route of ROUTES) {
    if (route.service !== service || !route.quick) continue;
    await part(`${service} GET ${route.path}: CPU profile`, results, async () => {
      const profiled = { seconds: PROFILE_SECONDS, connections: settings.connections };
      const env = serviceEnv(`profile-${results.layers.length}`);
      results.layers.push(await profileLayers(service, route.path, env, profiled, tmp));
    });
  }
  for (let start = 1; start < STARTS; start++) {
    const again = await startService(service, serviceEnv(`start-${start}`));
    row.startMs.push(again.startMs);
    await again.stop();
  }
}

/**
 * Runs one part of the bench; a part that fails (a service that does not start, a replay that
 * differs from the service's answer) is named in the report, and the other parts still run.
 */
async function part(name: string, results: BenchResults, run: () => Promise<void>) {
  log(name);
  try {
    await run();
  } catch (error) {
    log(`${name} failed: ${(error as Error).stack}`);
    results.failures.push(`${name}: ${(error as Error).message.split('\n')[0]}`);
  }
}

async function main() {
  const results: BenchResults = {
    quick,
    settings,
    loadAverage: loadAverageNow(),
    routes: [],
    layers: [],
    processes: [],
    failures: [],
  };
  if (options.wal) {
    await measureWal(results);
    if (results.wal) writeSection(WAL_HEADING, walSection(results.wal));
    return finish(results);
  }
  if (!options.scale) {
    for (const service of SERVICES) {
      if (wanted(service)) await part(service, results, () => measureService(service, results));
    }
  }
  await measureScale(results);
  if (options.scale) {
    writeSection(
      SCALE_HEADING,
      scaleSection(scaleResults(results), {
        loadAverage: results.scaleLoadAverage ?? { start: Number.NaN, end: Number.NaN },
        settings,
      }),
    );
    return finish(results);
  }
  await measureWal(results);
  const text = report(results);
  console.log(text);
  if (options.write) {
    const file = join(repoRoot, 'bench', 'RESULTS.md');
    writeFileSync(file, `${text}\n${keptSections(file)}`);
    log(`wrote ${file}`);
  }
  finish(results);
}

/** Growth with the data: each service at 1,000 records and at its large size. */
async function measureScale(results: BenchResults) {
  const targetsOnly = <T extends { target?: boolean }>(queries: T[]) =>
    quick ? queries.filter((query) => query.target) : queries;
  const start = loadAverageNow();
  if (wanted('games-service')) {
    await part('growth of games-service', results, async () => {
      results.gamesScale = await atScale(
        'games-service',
        tmp,
        BASE_ENV,
        settings,
        targetsOnly(GAMES_QUERIES),
        STARTS,
      );
    });
  }
  if (wanted('cd-service')) {
    await part('growth of cd-service', results, async () => {
      const queries = targetsOnly(CD_QUERIES);
      results.cdScale = await atScale('cd-service', tmp, BASE_ENV, settings, queries);
    });
  }
  results.scaleLoadAverage = { start, end: loadAverageNow() };
}

/** The WAL of cd-service under minutes of steady writes (WAL_RUN). */
async function measureWal(results: BenchResults) {
  if (!wanted('cd-service')) return;
  await part('cd-service WAL under steady writes', results, async () => {
    results.wal = await walUnderWrites(tmp, BASE_ENV, WAL_RUN);
  });
}

/**
 * `--scale`, `--wal`: prints that section alone and, with `--write`, puts it in place of the
 * one in RESULTS.md (up to the next section; when there is none, before the hand-written
 * sections), leaving the rest of the file as it was.
 */
function writeSection(heading: string, lines: string[]) {
  const section = lines.join('\n');
  console.log(section);
  if (!options.write || lines.length === 0) return;
  const file = join(repoRoot, 'bench', 'RESULTS.md');
  const text = readFileSync(file, 'utf8');
  let from = text.indexOf(`\n${heading}\n`);
  let next = text.indexOf('\n## ', from + 1);
  if (from === -1) {
    from = text.indexOf(`\n${LAYER_COSTS}\n`);
    if (from === -1) throw new Error(`${file} has no "${heading}" nor "${LAYER_COSTS}" section`);
    next = from;
  }
  const rest = next === -1 ? '' : text.slice(next + 1);
  writeFileSync(file, `${text.slice(0, from + 1)}${section}\n${rest}`);
  log(`wrote the section "${heading}" of ${file}`);
}

function finish(results: BenchResults) {
  if (results.failures.length > 0) {
    log(`kept ${tmp} (the captured answers, the data) to look into`);
    process.exitCode = 1;
  } else rmSync(tmp, { recursive: true, force: true });
}

await main();
