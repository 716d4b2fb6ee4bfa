// make bench: each service as a real process on 127.0.0.1 against a bare node:http server
// answering the same bytes, measured alternately (A B A B) so that the ratio survives a
// noisy machine; then how latency, start time and memory grow with the data.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startBareServer } from './baseline.js';
import { type LoadResult, load, type Request, send, sequentialP50 } from './load.js';
import { type RunningProcess, repoRoot, type ServiceName, startService } from './process.js';
import {
  GAMES_PER_RARE_WORD,
  rareWord,
  seeded,
  writeSyntheticCds,
  writeSyntheticGames,
} from './synthetic.js';

const { values: options } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    only: { type: 'string' },
    write: { type: 'boolean', default: false },
  },
});
const SECONDS = Number(options.seconds);
const ROUNDS = Number(options.rounds);
const CONNECTIONS = Number(options.connections);
const tmp = mkdtempSync(join(tmpdir(), 'bench-'));

interface Route {
  service: ServiceName;
  name: string;
  request: Request;
  /** What is promised: a minimum ratio to the bare server, or a minimum rate. */
  target?: { ratio: number } | { rps: number };
}

interface Row {
  route: Route;
  service: LoadResult;
  bare: LoadResult;
}

const CACHED_JSON = { ratio: 0.65 };
const PAGE = { ratio: 0.5 };

const get = (
  service: ServiceName,
  path: string,
  target?: Route['target'],
  page = false,
): Route => ({
  service,
  name: `GET ${path}${page ? ' (page)' : ''}`,
  request: { path },
  target,
});

function routes(cdId: string): Route[] {
  const cd = JSON.stringify({
    title: 'Bench Album',
    artist: 'Bench Artist',
    genre: 'Rock',
    releaseYear: 2001,
  });
  const games = 'games-service';
  const travel = 'travel-service';
  return [
    get(games, '/api/games', CACHED_JSON),
    get(games, '/api/games/top-rated', CACHED_JSON),
    get(games, '/api/games/hidden-gems', CACHED_JSON),
    get(games, '/api/games/genre/rpg', CACHED_JSON),
    get(games, '/api/games/1', CACHED_JSON),
    get(games, '/api/games/1/recommendations', CACHED_JSON),
    get(games, '/', PAGE, true),
    get(games, '/top-rated', PAGE, true),
    get(games, '/games/1', PAGE, true),
    get(travel, '/api/itineraries', CACHED_JSON),
    get(travel, '/api/itineraries/kyoto', CACHED_JSON),
    get(travel, '/api/itineraries/kyoto/highlights', CACHED_JSON),
    get(travel, '/', PAGE, true),
    get(travel, '/itineraries/kyoto', PAGE, true),
    get('cd-service', '/cds'),
    get('cd-service', '/cds?artist=Radiohead', { ratio: 0.4 }),
    {
      service: 'cd-service',
      name: 'POST /cds (durable)',
      request: { method: 'POST', path: '/cds', body: cd },
      target: { rps: 2000 },
    },
    {
      service: 'cd-service',
      name: 'PUT /cds/:id',
      request: {
        method: 'PUT',
        path: `/cds/${cdId}`,
        body: JSON.stringify({ genre: 'Alternative' }),
      },
    },
  ];
}

const average = (results: LoadResult[]): LoadResult => {
  const mean = (pick: (r: LoadResult) => number) =>
    results.reduce((sum, r) => sum + pick(r), 0) / results.length;
  const sum = (pick: (r: LoadResult) => number) => results.reduce((total, r) => total + pick(r), 0);
  return {
    requestsPerSecond: mean((r) => r.requestsPerSecond),
    p50Ms: mean((r) => r.p50Ms),
    p99Ms: mean((r) => r.p99Ms),
    total: sum((r) => r.total),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    non2xx: sum((r) => r.non2xx),
  };
};

async function measure(route: Route, service: RunningProcess): Promise<Row> {
  const sample = await send(service.url, route.request);
  const bare = await startBareServer(sample);
  const settings = { connections: CONNECTIONS, seconds: SECONDS };
  try {
    await load(service.url, route.request, { connections: CONNECTIONS, seconds: 1 }); // warm-up
    await load(bare.url, route.request, { connections: CONNECTIONS, seconds: 1 });
    const serviceRuns: LoadResult[] = [];
    const bareRuns: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      serviceRuns.push(await load(service.url, route.request, settings));
      bareRuns.push(await load(bare.url, route.request, settings));
    }
    return { route, service: average(serviceRuns), bare: average(bareRuns) };
  } finally {
    await bare.stop();
  }
}

function verdict({ route, service, bare }: Row): string {
  if (!route.target) return 'report only';
  const met =
    'ratio' in route.target
      ? service.requestsPerSecond / bare.requestsPerSecond >= route.target.ratio
      : service.requestsPerSecond >= route.target.rps;
  const goal =
    'ratio' in route.target
      ? `>= ${route.target.ratio.toFixed(2)}x`
      : `>= ${route.target.rps} req/s`;
  return `${met ? 'MET' : 'MISSED'} (${goal})`;
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function routeTable(rows: Row[]): string {
  const lines = [
    '| route | req/s | p50 ms | p99 ms | bare req/s | ratio | errors / non-2xx | target |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of rows) {
    const { route, service, bare } = row;
    lines.push(
      `| ${route.service.replace('-service', '')} ${route.name} | ${fmt(service.requestsPerSecond)} | ${fmt(service.p50Ms, 2)} | ${fmt(service.p99Ms, 2)} | ${fmt(bare.requestsPerSecond)} | ${fmt(service.requestsPerSecond / bare.requestsPerSecond, 2)} | ${service.errors + service.timeouts} / ${service.non2xx} | ${verdict(row)} |`,
    );
  }
  return lines.join('\n');
}

interface ScaleRow {
  service: string;
  measure: string;
  small: number;
  large: number;
  unit: string;
  target?: number;
}

function scaleTable(rows: ScaleRow[], small: number, large: number): string {
  const lines = [
    `| service | measure | ${fmt(small)} records | ${fmt(large)} records | growth | target |`,
    '|---|---|---:|---:|---:|---|',
  ];
  for (const row of rows) {
    const growth = row.large / row.small;
    const target =
      row.target === undefined
        ? 'report only'
        : `${growth <= row.target ? 'MET' : 'MISSED'} (<= ${row.target}x)`;
    lines.push(
      `| ${row.service} | ${row.measure} | ${fmt(row.small, 3)} ${row.unit} | ${fmt(row.large, 3)} ${row.unit} | ${fmt(growth, 2)}x | ${target} |`,
    );
  }
  return lines.join('\n');
}

/** The sizes compared by the scale part. */
const SMALL = 1_000;
const LARGE = 100_000;

/** How many requests each scale measure sends: every one a first-time request (see below). */
const SCALE_REQUESTS = 1000;

/** `count` distinct integers from 1 to `size`, in random order. */
function distinct(size: number, count: number, random: () => number): number[] {
  const picked = new Set<number>();
  while (picked.size < Math.min(count, size)) picked.add(1 + Math.floor(random() * size));
  return [...picked];
}

/**
 * The scale measures compare the work of a route at both sizes, so no request may be answered
 * by the replay of an earlier identical one: every URL is new (ids drawn without replacement;
 * games ignores an extra parameter; CD lists vary `limit` and `sort` over the same 20 records).
 */
async function gamesAtScale(): Promise<ScaleRow[]> {
  const measures = new Map<string, number[]>();
  const add = (name: string, value: number) =>
    measures.set(name, [...(measures.get(name) ?? []), value]);
  for (const size of [SMALL, LARGE]) {
    const service = await startService('games-service', {
      GAMES_FILE: writeSyntheticGames(tmp, size),
    });
    try {
      const random = seeded(size);
      const ids = () => distinct(size, SCALE_REQUESTS, random);
      const measure = (paths: string[]) =>
        sequentialP50(service.url, () => ({ path: paths.pop() ?? '/healthz' }), paths.length);
      const numbered = (path: string) =>
        Array.from({ length: SCALE_REQUESTS }, (_, i) => `${path}&n=${i}`);
      add('start time', service.startMs);
      await measure(numbered('/api/games/top-rated?warm=1').slice(0, 300));
      add('p50 top-rated', await measure(numbered('/api/games/top-rated?')));
      add('p50 genre (limit=10)', await measure(numbered('/api/games/genre/rpg?limit=10')));
      add(
        'p50 recommendations',
        await measure(ids().map((id) => `/api/games/${id}/recommendations`)),
      );
      add('p50 game by id', await measure(ids().map((id) => `/api/games/${id}`)));
      // A selective search: a rare title word (50 matches at both sizes), 20 of them. /api/games
      // refuses unknown parameters, so each URL is made new by a year range that keeps every
      // game (the synthetic years are 1980 to 2025): from 1950..1980 x to 2025..2100.
      const searches = (count: number, first: number) =>
        Array.from({ length: count }, (_, i) => {
          const n = first + i;
          const word = rareWord(Math.floor(random() * size), size);
          return `/api/games?q=${word}&limit=20&from=${1950 + (n % 31)}&to=${2025 + (Math.floor(n / 31) % 76)}`;
        });
      await measure(searches(300, SCALE_REQUESTS));
      add(
        `p50 search (${GAMES_PER_RARE_WORD} matches, limit=20)`,
        await measure(searches(SCALE_REQUESTS, 0)),
      );
      add('resident memory', service.rssMb());
    } finally {
      await service.stop();
    }
  }
  return toScaleRows('games', measures);
}

async function cdsAtScale(): Promise<ScaleRow[]> {
  const measures = new Map<string, number[]>();
  const add = (name: string, value: number) =>
    measures.set(name, [...(measures.get(name) ?? []), value]);
  const sorts = ['title', '-title', 'artist', '-artist', 'releaseYear', '-releaseYear'];
  for (const size of [SMALL, LARGE]) {
    const service = await startService('cd-service', {
      CD_DB_PATH: join(tmp, `cds-${size}.sqlite`),
      CD_SEED: 'true',
      CD_SEED_FILE: writeSyntheticCds(tmp, size),
    });
    try {
      add('start time', service.startMs);
      const page = JSON.parse(
        (await send(service.url, { path: '/cds?limit=1000' })).body.toString(),
      );
      const ids: string[] = page.map((cd: { id: string }) => cd.id);
      const random = seeded(size);
      // (limit, sort) pairs do not repeat within 2,940 requests: each URL is new.
      const artists = (count: number, from = 0) =>
        Array.from({ length: count }, (_, i) => {
          const artist = encodeURIComponent(`Artist ${Math.floor(random() * (size / 20))}`);
          return `/cds?artist=${artist}&limit=${20 + ((from + i) % 980)}&sort=${sorts[(from + i) % 6]}`;
        });
      const measure = (paths: string[]) =>
        sequentialP50(service.url, () => ({ path: paths.pop() ?? '/healthz' }), paths.length);
      await measure(artists(300, SCALE_REQUESTS));
      add('p50 GET /cds?artist= (20 matches)', await measure(artists(SCALE_REQUESTS)));
      add('p50 GET /cds/:id', await measure(ids.map((id) => `/cds/${id}`)));
      add('resident memory', service.rssMb());
    } finally {
      await service.stop();
    }
  }
  return toScaleRows('cd', measures);
}

function toScaleRows(service: string, measures: Map<string, number[]>): ScaleRow[] {
  return [...measures].map(([measure, [small = 0, large = 0]]) => ({
    service,
    measure,
    small,
    large,
    unit: measure === 'resident memory' ? 'MB' : 'ms',
    target: measure.startsWith('p50') ? 1.5 : undefined,
  }));
}

/** What each service is allowed: resident MB after start and after the load, start time in ms. */
const PROCESS_TARGETS: Record<ServiceName, { startMb: number; loadedMb: number; startMs: number }> =
  {
    'games-service': { startMb: 85, loadedMb: 95, startMs: 1000 },
    'travel-service': { startMb: 85, loadedMb: 95, startMs: 1000 },
    'cd-service': { startMb: 90, loadedMb: 95, startMs: 1000 },
  };

interface ProcessRow {
  service: ServiceName;
  startMs: number;
  startMb: number;
  loadedMb?: number;
}

function processTable(rows: ProcessRow[]): string {
  const lines = [
    '| service | start to listening | target | resident after start | target | resident after the load | target |',
    '|---|---:|---|---:|---|---:|---|',
  ];
  const check = (value: number | undefined, max: number, unit: string) =>
    value === undefined ? 'not measured' : `${value <= max ? 'MET' : 'MISSED'} (<= ${max} ${unit})`;
  for (const row of rows) {
    const target = PROCESS_TARGETS[row.service];
    lines.push(
      `| ${row.service} | ${fmt(row.startMs)} ms | ${check(row.startMs, target.startMs, 'ms')} | ${fmt(row.startMb, 1)} MB | ${check(row.startMb, target.startMb, 'MB')} | ${row.loadedMb === undefined ? '-' : `${fmt(row.loadedMb, 1)} MB`} | ${check(row.loadedMb, target.loadedMb, 'MB')} |`,
    );
  }
  return lines.join('\n');
}

async function main() {
  const wanted = (service: ServiceName) => !options.only || service.startsWith(options.only);
  const rows: Row[] = [];
  const processes: ProcessRow[] = [];
  const running = new Map<ServiceName, RunningProcess>();
  const cdFile = join(tmp, 'cds.sqlite');
  try {
    for (const name of ['games-service', 'travel-service', 'cd-service'] as const) {
      if (wanted(name)) {
        const service = await startService(name, {
          CD_DB_PATH: cdFile,
          CD_SEED: 'true',
          ITINERARY_SEED: 'bench',
        });
        running.set(name, service);
        processes.push({ service: name, startMs: service.startMs, startMb: service.rssMb() });
      }
    }
    let cdId = 'none';
    const cd = running.get('cd-service');
    if (cd) {
      const created = await send(
        cd.url,
        routes('x').find((r) => r.name.startsWith('POST'))?.request as Request,
      );
      cdId = JSON.parse(created.body.toString()).id;
    }
    for (const route of routes(cdId)) {
      const service = running.get(route.service);
      if (!service) continue;
      process.stderr.write(`measuring ${route.service} ${route.name}\n`);
      rows.push(await measure(route, service));
    }
    for (const row of processes) row.loadedMb = running.get(row.service)?.rssMb();
  } finally {
    for (const service of running.values()) await service.stop();
  }

  process.stderr.write('measuring how latency grows with the data\n');
  const scale = [
    ...(wanted('games-service') ? await gamesAtScale() : []),
    ...(wanted('cd-service') ? await cdsAtScale() : []),
  ];

  const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, ${fmt(totalmem() / 2 ** 30, 0)} GiB, Node.js ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
  const report = [
    `Machine: ${machine}.`,
    `Each route: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s alternating service and bare server (after a 1 s warm-up of each); req/s and latencies are the means of the rounds.`,
    '',
    routeTable(rows),
    '',
    'Each service as started above (compiled JavaScript, the command of its `npm start`): time from spawn to its listening log line, resident memory (VmRSS) right after start and after all of its routes above were loaded.',
    '',
    processTable(processes),
    '',
    'Scale: p50 of 1,000 sequential requests on one keep-alive connection, each a first-time URL (distinct ids; no answer replayed from memory), start time to the listening line, resident memory after the requests.',
    '',
    scaleTable(scale, SMALL, LARGE),
  ].join('\n');
  console.log(report);
  if (options.write)
    writeFileSync(join(repoRoot, 'bench', 'RESULTS.md'), `# Benchmark results\n\n${report}\n`);
}

await main();
