// How the time of a request grows with the data: the same service started on 1,000 and on a
// large number of generated records, both running, the same requests alternated between them.
// For games-service also: a light request's p99 while heavy searches loop, the start time at
// the large size and the resident memory after the search load. `--scale` runs this part alone.
import { join } from 'node:path';
import { alternate, median, type RunSettings, ratio, type Summary, summarize } from './compare.js';
import { load, send } from './load.js';
import { type RunningProcess, type ServiceName, startService } from './process.js';
import {
  cdArtist,
  GAMES_PER_RARE_WORD,
  gameDeveloper,
  gameTitle,
  QUARTER_GENRE,
  rareWord,
  syntheticCds,
  WORD_IN_EVERY_TITLE,
  writeSyntheticCds,
  writeSyntheticGames,
} from './synthetic.js';

/** The records of the baseline start: every growth is a time over the time at this size. */
export const SMALL = 1_000;
/** The games of games-service's large start: the catalogue size its targets are set for. */
export const GAMES_LARGE = 100_000;
/** The CDs cd-service seeds into SQLite at its large start. */
export const CDS_LARGE = 1_000_000;
/** The most the time of a request may grow from SMALL to the large size. */
export const MAX_GROWTH = 3;
/** The most a light request's p99 may grow while 4 clients loop the heaviest search. */
export const MAX_P99_UNDER_SEARCHES = 10;
/** The clients that loop the heaviest search while the light request's p99 is measured. */
export const HEAVY_CLIENTS = 4;
/** games-service's bounds at GAMES_LARGE games: start to listening, and memory after the load. */
export const MAX_LARGE_START_MS = 5_000;
export const MAX_LARGE_RESIDENT_MB = 256;
/** cd-service's bounds with a CDS_LARGE seed: start to listening, and peak memory (its limit). */
export const MAX_CD_SEEDED_START_MS = 60_000;
export const MAX_CD_PEAK_RESIDENT_MB = 384;
/** The light request measured beside the heavy searches. */
const LIGHT_PATH = '/api/games/1';
/** games-service's results per search page (its own SEARCH_PAGE_SIZE): the last page's number. */
const SEARCH_PAGE_SIZE = 24;
/** The `limit` of every API search measured: one page, as a client asks for it. */
const API_PAGE = 20;

export interface GrowthRow {
  service: ServiceName;
  what: string;
  /** The URL at the large size (the last-page URLs differ with the size). */
  path: string;
  small: Summary;
  large: Summary;
  /** The time of a request at the large size over the time at SMALL (SMALL's rate over the large's). */
  growth: number;
  /** MAX_GROWTH for a target, none when reported. */
  target?: number;
  /** The service's CPU time per request, µs, at each size (over all the rounds). */
  cpuUs: { small: number; large: number };
}

export interface ScaleResult {
  service: ServiceName;
  large: number;
  rows: GrowthRow[];
  /** Start to listening, ms: one start at SMALL, each start at the large size. */
  startMs: { small: number; large: number[] };
  /** The CPU time those starts took, ms (a busy machine stretches startMs, much less this). */
  startCpuMs: { small: number; large: number[] };
  /** games-service only: a light request's p99 alone and while heavy searches loop. */
  heavy?: { path: string; aloneP99Ms: number; loadedP99Ms: number; ratio: number };
  /** games-service only: resident memory at the large size after the search load, MB. */
  rssAfterLoadMb?: number;
  /** cd-service only: the most resident memory at the large size, seeding included, MB. */
  peakRssMb?: number;
}

interface Query {
  what: string;
  /** The request at a catalogue of `size` records. */
  path: (size: number) => string;
  target?: boolean;
}

const fixed = (path: string) => () => path;
const artist = encodeURIComponent(cdArtist(7, SMALL));
const year = 1960;
/** How many generated CDs of SMALL are Jazz released before `year` (14). */
const JAZZ_BEFORE_AT_SMALL = syntheticCds(SMALL).filter(
  (cd) => cd.genre === 'Jazz' && cd.releaseYear < year,
).length;

const CD_FILTERS: [what: string, query: string][] = [
  ['all CDs', ''],
  [`genre ${QUARTER_GENRE} (a quarter of the CDs)`, `genre=${QUARTER_GENRE}`],
  ['one artist (20 CDs)', `artist=${artist}`],
  [`released before ${year}`, `before=${year}`],
  ['genre and artist', `genre=${QUARTER_GENRE}&artist=${artist}`],
  [`genre and before ${year}`, `genre=Jazz&before=${year}`],
  [`artist and before ${year}`, `artist=${artist}&before=${year}`],
  ['genre, artist and before', `genre=${QUARTER_GENRE}&artist=${artist}&before=${year}`],
];
const CD_SORTS = ['title', '-title', 'artist', '-artist', 'releaseYear', '-releaseYear'];

/** The first page of every filter, combination and sort, both ways; titles only on a range. */
export const CD_QUERIES: Query[] = [
  ...CD_FILTERS.flatMap(([what, filter]) =>
    CD_SORTS.map((sort) => ({
      what: `${what}, sort=${sort}`,
      path: fixed(`/cds?${filter}${filter ? '&' : ''}sort=${sort}&limit=20`),
      target: true,
    })),
  ),
  // Only JAZZ_BEFORE_AT_SMALL CDs match at SMALL: a limit above it would compare a short answer
  // with a full one. The target asks for the same number of titles at both sizes.
  {
    what: `titles of genre and before ${year}, limit=${JAZZ_BEFORE_AT_SMALL} (every match at ${SMALL})`,
    path: fixed(`/cds?fields=title&genre=Jazz&before=${year}&limit=${JAZZ_BEFORE_AT_SMALL}`),
    target: true,
  },
  // Untargeted: 1,000 titles at the large size against the few at SMALL, the cost following the
  // size of the answer.
  {
    what: `titles of genre and before ${year}, limit=1000 (answers of different sizes)`,
    path: fixed(`/cds?fields=title&genre=Jazz&before=${year}&limit=1000`),
  },
];

/**
 * Twelve words that all start words of the first generated game (the same game at every size):
 * its title's and developer's six words, and prefixes of them.
 */
function twelveWords(): string {
  const words = `${gameTitle(0, SMALL)} ${gameDeveloper(0)}`.toLowerCase().split(' ');
  const prefixes = words.flatMap((word) => [word.slice(0, 1), word.slice(0, 2)]);
  return [...new Set([...words, ...prefixes])].slice(0, 12).join(' ');
}

/** The query shapes, each on the API (q results by id) and on the search page (best first). */
const SEARCH_SHAPES: { what: string; q: string; sort?: string; last?: boolean }[] = [
  { what: `a rare word (${GAMES_PER_RARE_WORD} games)`, q: rareWord(0, SMALL) },
  { what: 'a word in every title', q: WORD_IN_EVERY_TITLE },
  { what: 'one letter', q: 's' },
  { what: '12 words', q: twelveWords() },
  { what: 'a word in every title, sort=title, first page', q: WORD_IN_EVERY_TITLE, sort: 'title' },
  {
    what: 'a word in every title, sort=title, last page',
    q: WORD_IN_EVERY_TITLE,
    sort: 'title',
    last: true,
  },
];

export const GAMES_QUERIES: Query[] = SEARCH_SHAPES.flatMap(({ what, q, sort, last }) => {
  const query = `q=${encodeURIComponent(q)}${sort ? `&sort=${sort}` : ''}`;
  // The word in every title matches every game: its last page starts `size - page` in.
  const apiPage = (size: number) =>
    last ? `&offset=${size - API_PAGE}&limit=${API_PAGE}` : `&limit=${API_PAGE}`;
  const searchPage = (size: number) => (last ? `&page=${Math.ceil(size / SEARCH_PAGE_SIZE)}` : '');
  return [
    { what: `API, ${what}`, path: (size) => `/api/games?${query}${apiPage(size)}`, target: true },
    { what: `page, ${what}`, path: (size) => `/search?${query}${searchPage(size)}`, target: true },
  ];
});

/** Alternates every query between the two running sizes. */
async function growthRows(
  service: ServiceName,
  [small, large]: [RunningProcess, RunningProcess],
  largeSize: number,
  queries: Query[],
  settings: RunSettings,
): Promise<GrowthRow[]> {
  const rows: GrowthRow[] = [];
  for (const { what, path, target } of queries) {
    const paths = { small: path(SMALL), large: path(largeSize) };
    process.stderr.write(`  ${service} at ${SMALL} and ${largeSize}: ${paths.large}\n`);
    for (const [running, at] of [
      [small, paths.small],
      [large, paths.large],
    ] as const) {
      const { status } = await send(running.url, { path: at });
      if (status !== 200) throw new Error(`${service} answers ${at} with ${status}`);
    }
    const cpuAt = () => ({ small: small.cpuUs(), large: large.cpuUs() });
    let before = cpuAt();
    const runs = await alternate(
      {
        small: { url: small.url, request: { path: paths.small } },
        large: { url: large.url, request: { path: paths.large } },
      },
      settings,
      () => {
        before = cpuAt();
      },
    );
    const after = cpuAt();
    const served = (results: { total: number }[]) => results.reduce((n, r) => n + r.total, 0);
    rows.push({
      service,
      what,
      path: paths.large,
      small: summarize(runs.small),
      large: summarize(runs.large),
      growth: ratio(runs.small, runs.large),
      ...(target && { target: MAX_GROWTH }),
      cpuUs: {
        small: (after.small - before.small) / served(runs.small),
        large: (after.large - before.large) / served(runs.large),
      },
    });
  }
  return rows;
}

/**
 * The p99 of one client sending LIGHT_PATH, alone and while HEAVY_CLIENTS clients loop `heavy`,
 * alternated for the rounds; medians of the rounds.
 */
async function p99BesideHeavySearches(url: string, heavy: string, settings: RunSettings) {
  const light = { path: LIGHT_PATH };
  const { seconds } = settings;
  const alone: number[] = [];
  const loaded: number[] = [];
  await load(url, light, { connections: 1, seconds: settings.warmSeconds });
  for (let round = 0; round < settings.rounds; round++) {
    alone.push((await load(url, light, { connections: 1, seconds })).p99Ms);
    const [measured] = await Promise.all([
      load(url, light, { connections: 1, seconds }),
      load(url, { path: heavy }, { connections: HEAVY_CLIENTS, seconds }),
    ]);
    loaded.push(measured.p99Ms);
  }
  const aloneP99Ms = median(alone);
  const loadedP99Ms = median(loaded);
  return { path: heavy, aloneP99Ms, loadedP99Ms, ratio: loadedP99Ms / aloneP99Ms };
}

type MeasuredStart = RunningProcess & { startCpuMs: number };

/** Starts a service and notes the CPU time it took to listen. */
async function startMeasured(
  service: ServiceName,
  env: Record<string, string>,
): Promise<MeasuredStart> {
  const running = await startService(service, env);
  return Object.assign(running, { startCpuMs: running.cpuUs() / 1000 });
}

async function compareSizes(
  service: ServiceName,
  largeSize: number,
  envFor: (size: number) => Record<string, string>,
  queries: Query[],
  settings: RunSettings,
  starts: number,
): Promise<ScaleResult> {
  const started: MeasuredStart[] = [];
  try {
    for (const size of [SMALL, largeSize]) started.push(await startMeasured(service, envFor(size)));
    const [small, large] = started as [MeasuredStart, MeasuredStart];
    const startCpu = { small: small.startCpuMs, large: large.startCpuMs };
    const rows = await growthRows(service, [small, large], largeSize, queries, settings);
    const result: ScaleResult = {
      service,
      large: largeSize,
      rows,
      startMs: { small: small.startMs, large: [large.startMs] },
      startCpuMs: { small: startCpu.small, large: [startCpu.large] },
    };
    if (service === 'games-service' && rows.length > 0) {
      const heaviest = rows.reduce((a, b) => (b.cpuUs.large > a.cpuUs.large ? b : a));
      process.stderr.write(`  ${service}: ${LIGHT_PATH} beside ${heaviest.path}\n`);
      result.heavy = await p99BesideHeavySearches(large.url, heaviest.path, settings);
      result.rssAfterLoadMb = large.rssMb();
    }
    if (service === 'cd-service') result.peakRssMb = large.rssMb('VmHWM');
    for (const running of started.splice(0)) await running.stop();
    for (let start = 1; start < starts; start++) {
      const again = await startMeasured(service, envFor(largeSize));
      result.startMs.large.push(again.startMs);
      result.startCpuMs.large.push(again.startCpuMs);
      await again.stop();
    }
    return result;
  } finally {
    for (const running of started) await running.stop();
  }
}

type ScaledService = 'games-service' | 'cd-service';

/**
 * What a service's growth is measured on: its large size, and the environment that starts it on
 * `size` generated records written in `dir` (written once per size, however many starts).
 */
const AT_SCALE: Record<
  ScaledService,
  { large: number; data: (dir: string, size: number) => Record<string, string> }
> = {
  'games-service': {
    large: GAMES_LARGE,
    data: (dir, size) => ({ GAMES_FILE: writeSyntheticGames(dir, size) }),
  },
  'cd-service': {
    large: CDS_LARGE,
    data: (dir, size) => ({
      CD_DB_PATH: join(dir, `cds-${size}.sqlite`),
      CD_SEED: 'true',
      CD_SEED_FILE: writeSyntheticCds(dir, size),
    }),
  },
};

/** `service` at SMALL and at its large size: `queries` alternated, and `starts` starts timed. */
export function atScale(
  service: ScaledService,
  dir: string,
  env: Record<string, string>,
  settings: RunSettings,
  queries: Query[],
  starts = 1,
): Promise<ScaleResult> {
  const { large, data } = AT_SCALE[service];
  const envs = new Map<number, Record<string, string>>();
  const envFor = (size: number) => {
    if (!envs.has(size)) envs.set(size, { ...env, ...data(dir, size) });
    return envs.get(size) as Record<string, string>;
  };
  return compareSizes(service, large, envFor, queries, settings, starts);
}

const fmt = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : 'n/a';
const verdict = (met: boolean, goal: string) => `${met ? 'MET' : 'MISSED'} (${goal})`;
const atMost = (value: number, max: number, unit: string) =>
  verdict(value <= max, `<= ${fmt(max)}${unit}`);
const short = (service: string) => service.replace('-service', '');
const latency = (s: Summary) => `${fmt(s.p50Ms, 2)} / ${fmt(s.p99Ms, 2)}`;

/** Every verdict of the scale part, one line each. */
export function scaleVerdicts(results: ScaleResult[]): string[] {
  const lines: string[] = [];
  for (const result of results) {
    const { service, large } = result;
    for (const row of result.rows) {
      if (row.target !== undefined) {
        lines.push(
          `${atMost(row.growth, row.target, 'x')} ${short(service)} \`${row.path}\`: at ${fmt(large)} records, ${fmt(row.growth, 2)}x the time at ${fmt(SMALL)}`,
        );
      }
    }
    if (result.heavy) {
      const { path, aloneP99Ms, loadedP99Ms, ratio: grew } = result.heavy;
      lines.push(
        `${atMost(grew, MAX_P99_UNDER_SEARCHES, 'x')} ${short(service)} p99 of \`GET ${LIGHT_PATH}\` while ${HEAVY_CLIENTS} clients loop \`${path}\`: ${fmt(loadedP99Ms, 2)} ms, ${fmt(grew, 1)}x its ${fmt(aloneP99Ms, 2)} ms alone`,
      );
    }
    if (service === 'games-service') {
      const start = median(result.startMs.large);
      lines.push(
        `${atMost(start, MAX_LARGE_START_MS, ' ms')} ${short(service)} start to listening at ${fmt(large)} games: ${fmt(start)} ms (median of ${result.startMs.large.length})`,
      );
    }
    if (service === 'cd-service') {
      const start = median(result.startMs.large);
      lines.push(
        `${atMost(start, MAX_CD_SEEDED_START_MS, ' ms')} ${short(service)} start to listening, seeding ${fmt(large)} CDs: ${fmt(start)} ms`,
      );
      if (result.peakRssMb !== undefined) {
        lines.push(
          `${atMost(result.peakRssMb, MAX_CD_PEAK_RESIDENT_MB, ' MB')} ${short(service)} peak resident memory at ${fmt(large)} CDs, seeding included: ${fmt(result.peakRssMb, 1)} MB`,
        );
      }
    }
    if (result.rssAfterLoadMb !== undefined) {
      lines.push(
        `${atMost(result.rssAfterLoadMb, MAX_LARGE_RESIDENT_MB, ' MB')} ${short(service)} resident at ${fmt(large)} games after the search load: ${fmt(result.rssAfterLoadMb, 1)} MB`,
      );
    }
  }
  return lines.map((line) => `- ${line}`);
}

function growthTable({ large, rows }: ScaleResult): string {
  return [
    `| what | URL at ${fmt(large)} | req/s at ${fmt(SMALL)} | req/s at ${fmt(large)} | p50 / p99 ms at ${fmt(SMALL)} | p50 / p99 ms at ${fmt(large)} | time at ${fmt(large)} / at ${fmt(SMALL)} | target | CPU µs a request at ${fmt(SMALL)} / at ${fmt(large)} | CPU at ${fmt(large)} / at ${fmt(SMALL)} |`,
    '|---|---|---:|---:|---:|---:|---:|---|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.what} | \`${row.path}\` | ${fmt(row.small.rps)} | ${fmt(row.large.rps)} | ${latency(row.small)} | ${latency(row.large)} | ${fmt(row.growth, 2)}x | ${row.target === undefined ? 'reported' : atMost(row.growth, row.target, 'x')} | ${fmt(row.cpuUs.small)} / ${fmt(row.cpuUs.large)} | ${fmt(row.cpuUs.large / row.cpuUs.small, 2)}x |`,
    ),
  ].join('\n');
}

export const SCALE_HEADING = '## Growth with the data';

/** The "Growth with the data" section of RESULTS.md. */
export function scaleSection(
  results: ScaleResult[],
  run: { loadAverage: { start: number; end: number }; settings: RunSettings },
): string[] {
  if (results.length === 0) return [];
  const { rounds, seconds, connections } = run.settings;
  const titles: Record<string, string> = {
    'cd-service': 'CD lists (SQLite)',
    'games-service': 'Game search',
  };
  return [
    SCALE_HEADING,
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; load average ${fmt(run.loadAverage.start, 2)} at the start of this part, ${fmt(run.loadAverage.end, 2)} at its end, on a machine shared with other work: figures move with it, ratios less (both sizes are measured in the same rounds).`,
    '',
    `Each service runs twice, on ${fmt(SMALL)} generated records and on the large size (\`bench/src/synthetic.ts\`, the seeds' field sizes), both running; each request alternates between them, ${rounds} round(s) of ${seconds} s, ${connections} connections. Growth is the time of a request (1 / req/s) at the large size over its time at ${fmt(SMALL)}; the last columns give the service's CPU time per request over the rounds (from /proc, which other processes on the machine move much less than req/s). The p99 beside heavy searches: one client sends \`GET ${LIGHT_PATH}\` alone, then while ${HEAVY_CLIENTS} clients loop the search of the table that takes the most CPU time at the large size, round after round; medians of the rounds. \`make bench-scale\` runs this part alone.`,
    '',
    ...scaleVerdicts(results),
    '',
    ...results.flatMap((result) => [
      `### ${titles[result.service] ?? result.service}, ${fmt(SMALL)} and ${fmt(result.large)} records`,
      '',
      growthTable(result),
      '',
      `Start to listening: ${fmt(result.startMs.small)} ms with ${fmt(SMALL)}; ${result.startMs.large.map((ms) => fmt(ms)).join(', ')} ms with ${fmt(result.large)}. The CPU time of those starts: ${fmt(result.startCpuMs.small)} ms; ${result.startCpuMs.large.map((ms) => fmt(ms)).join(', ')} ms.`,
      '',
    ]),
  ];
}
