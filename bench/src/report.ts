// RESULTS.md: the run's tables, each target MET or MISSED, and the hand-written sections that
// follow "## What each layer costs" kept from the file as it was.

import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import type { RunSettings, Summary } from './compare.js';
import { CONDITIONAL_PAGE, type ConditionalListResult } from './conditional-list.js';
import type { LayerCosts } from './layer-costs.js';
import type { RouteRow } from './measure-route.js';
import type { ServiceName } from './process.js';
import { GROUPS, type Group } from './routes.js';
import { type ScaleResult, scaleSection, scaleVerdicts } from './scale.js';
import { VARIED_REQUESTS } from './varied.js';
import { type WalResult, walSection, walVerdict } from './wal.js';
import { MIX_CONNECTIONS, MIX_READ, type MixResult } from './writes.js';

export const MAX_START_MS = 1000;
/**
 * Resident memory of a service at the seeds' size, after the load: what Node and Koa take by
 * themselves (the plain Koa replay after its share of the load, 83-87 MB) and the service's own
 * heap and code beside it (about 20 MB more). 85 MB, the target before, is below Node's own
 * floor under this load: see RESULTS.md, "Resident memory at the seeds' size".
 */
export const MAX_RESIDENT_MB = 110;
export const MIN_POSTS_RPS = 2000;
export const MIN_MIX_RATIO = 0.5;

export interface ProcessRow {
  service: ServiceName;
  /** Start to listening, ms, of each start. */
  startMs: number[];
  rssStartMb: number;
  rssLoadedMb?: number;
  rssVariedMb?: number;
  /** The part of rssVariedMb in mapped files (the node executable, mostly). */
  rssFileMb?: number;
  variedStatuses?: Record<number, number>;
}

export interface BenchResults {
  quick: boolean;
  settings: RunSettings;
  /** The machine's load average when the run began: a busy machine moves every figure. */
  loadAverage: number;
  routes: RouteRow[];
  /** What each layer costs, from a CPU profile of a service on one of its routes. */
  layers: LayerCosts[];
  posts?: Summary;
  mix?: MixResult;
  conditionalList?: ConditionalListResult;
  processes: ProcessRow[];
  cdScale?: ScaleResult;
  gamesScale?: ScaleResult;
  /** The load average at the start and the end of the scale part. */
  scaleLoadAverage?: { start: number; end: number };
  /** cd-service's WAL under minutes of steady writes. */
  wal?: WalResult;
  /** The parts that failed, with why: not measured. */
  failures: string[];
}

export const LAYER_COSTS = '## What each layer costs';
const LAYER_COSTS_PLACEHOLDER = `${LAYER_COSTS}

Written by hand: what the profiles above mean, and what was tried. \`make bench\` keeps this
section and everything after it as written.
`;

const fmt = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : 'n/a';
const short = (service: string) => service.replace('-service', '');
const verdict = (met: boolean, goal: string) => `${met ? 'MET' : 'MISSED'} (${goal})`;
const atLeast = (value: number, min: number, digits = 2) =>
  verdict(value >= min, `>= ${fmt(min, digits)}`);
const atMost = (value: number, max: number, unit: string, digits = 0) =>
  verdict(value <= max, `<= ${fmt(max, digits)}${unit}`);
const latency = (s: Summary) => `${fmt(s.p50Ms, 2)} / ${fmt(s.p99Ms, 2)}`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;

function routeTable(rows: RouteRow[]): string {
  const lines = [
    '| route | service req/s | plain Koa req/s | bare req/s | service / plain Koa | service / bare |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      ({ route, service, koa, bare, ratios }) =>
        `| ${short(route.service)} \`GET ${route.path}\` | ${fmt(service.rps)} | ${fmt(koa.rps)} | ${fmt(bare.rps)} | ${fmt(ratios.serviceToKoa, 2)} | ${fmt(ratios.serviceToBare, 2)} |`,
    ),
    '',
    'Latency, p50 / p99 in ms (medians of the rounds):',
    '',
    '| route | service | plain Koa | bare |',
    '|---|---:|---:|---:|',
    ...rows.map(
      ({ route, service, koa, bare }) =>
        `| ${short(route.service)} \`GET ${route.path}\` | ${latency(service)} | ${latency(koa)} | ${latency(bare)} |`,
    ),
  ];
  const failures = rows.flatMap(({ route, ...servers }) =>
    (['service', 'koa', 'bare'] as const)
      .filter((name) => servers[name].failed + servers[name].non2xx > 0)
      .map(
        (name) =>
          `- ${short(route.service)} \`${route.path}\`, ${name}: ${servers[name].failed} failed, ${servers[name].non2xx} not 2xx.`,
      ),
  );
  return [...lines, ...(failures.length ? ['', 'Failed answers:', '', ...failures] : [])].join(
    '\n',
  );
}

function layersSection(layers: LayerCosts[]): string[] {
  if (layers.length === 0) return [];
  return [
    '## Layer costs, from a CPU profile of this run',
    '',
    "Each service started alone with `node --cpu-prof` (and its `npm start` flags) and loaded on one route; bench's `bin/layer-costs.js` gives each CPU sample to the layer whose code ran (its kit file or the library it uses; Koa's and Node's own frames are skipped on the way up, so a header a layer sets counts for that layer), divided by the requests answered. The profile includes the JIT's warm-up.",
    '',
    ...layers.flatMap(({ service, path, requests, table }) => [
      `### ${short(service)} \`GET ${path}\` (${fmt(requests)} requests)`,
      '',
      table,
      '',
    ]),
  ];
}

function writesSection(results: BenchResults): string[] {
  const { posts, mix } = results;
  if (!posts || !mix) return [];
  return [
    '## CD writes (SQLite, durable: each answered write is on disk)',
    '',
    '| what | req/s | p50 / p99 ms | target |',
    '|---|---:|---:|---|',
    `| \`POST /cds\`, ${results.settings.connections} connections | ${fmt(posts.rps)} | ${latency(posts)} | ${verdict(posts.rps >= MIN_POSTS_RPS, `>= ${fmt(MIN_POSTS_RPS)} req/s`)} |`,
    '',
    `Read/write mix, ${MIX_CONNECTIONS} connections, each sending 1 \`POST /cds\` then 9 \`GET ${MIX_READ.path}\` in turn (writes: ${fmt(mix.writeShare * 100, 1)}% of the answers), alternated with the same connections sending only the reads:`,
    '',
    '| reads alone req/s | mix req/s | mix / reads alone | p99 ms reads alone | p99 ms mix | p99 ms of the reads in the mix | p99 ms of the writes in the mix | target |',
    '|---:|---:|---:|---:|---:|---:|---:|---|',
    `| ${fmt(mix.reads.rps)} | ${fmt(mix.mix.rps)} | ${fmt(mix.ratio, 2)} | ${fmt(mix.reads.p99Ms, 2)} | ${fmt(mix.mix.p99Ms, 2)} | ${fmt(mix.readP99Ms, 2)} | ${fmt(mix.writeP99Ms, 2)} | ${atLeast(mix.ratio, MIN_MIX_RATIO)} |`,
    '',
  ];
}

function conditionalListSection({ conditionalList: list }: BenchResults): string[] {
  if (!list) return [];
  return [
    '## CD list revalidated (SQLite, 61 CDs on one page)',
    '',
    `\`GET ${CONDITIONAL_PAGE}\` with its own ETag in \`If-None-Match\` (304: the page's \`X-Total-Count\` and \`Link\`, its CDs neither read nor serialized), alternated with the same page answered in full (200):`,
    '',
    '| 200 req/s | 304 req/s | 304 / 200 | p50 / p99 ms 200 | p50 / p99 ms 304 |',
    '|---:|---:|---:|---:|---:|',
    `| ${fmt(list.full.rps)} | ${fmt(list.notModified.rps)} | ${fmt(list.ratio, 2)} | ${latency(list.full)} | ${latency(list.notModified)} |`,
    '',
  ];
}

function processSection(rows: ProcessRow[], routes: RouteRow[]): string[] {
  const mb = (value: number | undefined) => (value === undefined ? '-' : `${fmt(value, 1)} MB`);
  const memory = (value: number | undefined) =>
    value === undefined ? 'not measured' : atMost(value, MAX_RESIDENT_MB, ' MB');
  const statuses = (counts: Record<number, number> | undefined) =>
    counts
      ? Object.entries(counts)
          .map(([status, count]) => `${status === '0' ? 'no answer' : status}: ${fmt(count)}`)
          .join(', ')
      : '-';
  // The baseline: the largest memory of a plain Koa replay of this service's routes, started
  // with the same Node flags and loaded like the service on its route.
  const plainKoa = (service: string) => {
    const values = routes.filter((row) => row.route.service === service).map((row) => row.koaRssMb);
    return values.length ? Math.max(...values) : undefined;
  };
  return [
    '## Processes: start and memory',
    '',
    `Each service as \`npm start\` runs it (compiled JavaScript, its Node flags). Start: spawn to its "listening" log line, the median of ${rows[0]?.startMs.length ?? 0} start(s). Resident memory (VmRSS): after start, after all the load above, then after ${fmt(VARIED_REQUESTS)} requests with varied paths, queries and headers; of that last figure, the part in mapped files (RssFile: mostly the node executable's own code and data, shared with every other node process on the machine). The baseline: the most a plain Koa 3 + @koa/router replay of one of the service's routes took after its share of the load (the same Node flags, no other module).`,
    '',
    '| service | start to listening | target | after start | after the load | target | after the varied requests | target | of which mapped files | plain Koa replay after its load | varied answers by status |',
    '|---|---:|---|---:|---:|---|---:|---|---:|---:|---|',
    ...rows.map((row) => {
      const start = median(row.startMs);
      return `| ${row.service} | ${fmt(start)} ms | ${atMost(start, MAX_START_MS, ' ms')} | ${mb(row.rssStartMb)} | ${mb(row.rssLoadedMb)} | ${memory(row.rssLoadedMb)} | ${mb(row.rssVariedMb)} | ${memory(row.rssVariedMb)} | ${mb(row.rssFileMb)} | ${mb(plainKoa(row.service))} | ${statuses(row.variedStatuses)} |`;
    }),
    '',
  ];
}

/** Every verdict of the run, one line each. */
function verdicts(results: BenchResults): string[] {
  const lines: string[] = [];
  lines.push(...scaleVerdicts(scaleResults(results)).map((line) => line.slice(2)));
  if (results.posts) {
    lines.push(
      `${verdict(results.posts.rps >= MIN_POSTS_RPS, `>= ${fmt(MIN_POSTS_RPS)} req/s`)} cd durable \`POST /cds\`: ${fmt(results.posts.rps)} req/s`,
    );
  }
  if (results.wal) lines.push(walVerdict(results.wal));
  if (results.mix) {
    lines.push(
      `${atLeast(results.mix.ratio, MIN_MIX_RATIO)} cd 90/10 read/write mix: ${fmt(results.mix.ratio, 2)} of the reads alone, p99 ${fmt(results.mix.mix.p99Ms, 1)} ms`,
    );
  }
  for (const row of results.processes) {
    lines.push(
      `${atMost(median(row.startMs), MAX_START_MS, ' ms')} ${row.service} start to listening: ${fmt(median(row.startMs))} ms`,
    );
    for (const [when, value] of [
      ['after the load', row.rssLoadedMb],
      ['after the varied requests', row.rssVariedMb],
    ] as const) {
      if (value !== undefined) {
        lines.push(
          `${atMost(value, MAX_RESIDENT_MB, ' MB')} ${row.service} resident ${when}: ${fmt(value, 1)} MB`,
        );
      }
    }
  }
  return lines.map((line) => `- ${line}`);
}

function method(results: BenchResults): string {
  const { rounds, seconds, connections, warmSeconds } = results.settings;
  return [
    '## Method',
    '',
    `- Each route runs on three servers, each a process of its own on 127.0.0.1, loaded by autocannon from the bench's process: **the service** (compiled, started with its \`npm start\` command, request logs off); **plain Koa**, a Koa 3 + @koa/router app replaying the service's captured answer (status, headers, body) at the same path, the floor the framework sets; **bare**, a node:http server replaying it too, the machine's limit. The two replays run with the Node flags of the service's \`npm start\` (its heap settings).`,
    `- The three alternate: ${rounds} round(s) of ${seconds} s each, ${connections} connections (after ${warmSeconds} s of warm-up each), the first server of each round moving on by one. req/s and latencies are the medians of the rounds; each ratio is the median of the round-by-round ratios. service / plain Koa is what the service's work and layers cost above the framework; what each layer takes of it is in the CPU profiles.`,
    '- Growth with the data: see its section.',
    "- Latencies are autocannon's per-response times, measured to the microsecond (its histogram counts whole milliseconds).",
  ].join('\n');
}

function machine(results: BenchResults): string {
  const cpu = cpus();
  return `${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${fmt(totalmem() / 2 ** 30)} GiB, Node.js ${process.version}, load average ${fmt(results.loadAverage, 2)} at the start`;
}

export const scaleResults = (results: BenchResults): ScaleResult[] =>
  [results.gamesScale, results.cdScale].filter((result) => result !== undefined);

export function loadAverageNow(): number {
  return loadavg()[0] ?? Number.NaN;
}

export function report(results: BenchResults): string {
  const groups = Object.keys(GROUPS) as Group[];
  const kind = results.quick
    ? '**A `--quick` run** (a few routes, short rounds: see Method): a check that the bench works, not figures to rely on.'
    : 'A full run (`make bench`).';
  return [
    '# Benchmark results',
    '',
    `${kind} ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; machine: ${machine(results)}.`,
    '',
    method(results),
    '',
    '## Targets',
    '',
    ...verdicts(results),
    '',
    ...(results.failures.length
      ? [
          '## Not measured',
          '',
          ...results.failures.map((failure) => `- ${failure.replaceAll('|', '\\|')}`),
          '',
        ]
      : []),
    ...groups.flatMap((group) => {
      const rows = results.routes.filter((row) => row.route.group === group);
      return rows.length ? [`## ${GROUPS[group]}`, '', routeTable(rows), ''] : [];
    }),
    ...layersSection(results.layers),
    ...scaleSection(scaleResults(results), {
      loadAverage: results.scaleLoadAverage ?? { start: Number.NaN, end: Number.NaN },
      settings: results.settings,
    }),
    ...writesSection(results),
    ...(results.wal ? walSection(results.wal) : []),
    ...conditionalListSection(results),
    ...processSection(results.processes, results.routes),
  ].join('\n');
}

/** The hand-written sections of `file` (from "What each layer costs" on), or a placeholder. */
export function keptSections(file: string): string {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const at = text.indexOf(`\n${LAYER_COSTS}\n`);
  return at === -1 ? LAYER_COSTS_PLACEHOLDER : text.slice(at + 1);
}
