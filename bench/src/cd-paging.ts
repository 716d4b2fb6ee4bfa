import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Agent, get } from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { percentile } from './load.js';
import { cdArtist, QUARTER_GENRE, seeded } from './synthetic.js';

/**
 * Clients paging `GET /cds` as a hostile user would: every documented parameter, limits up to
 * 1,000, offsets up to 10,000, cursors followed from `Link` (in a process of their own); and a
 * prober asking `/readyz` and `/livez` the way the edge does (on new connections, every second),
 * to see whether the service still answers it while the pages are read.
 *   node --import tsx src/cd-paging.ts URL [CLIENTS=64] [SECONDS=60] [CDS=61000]
 */

const SORTS = ['title', '-title', 'artist', '-artist', 'releaseYear', '-releaseYear'];
/** The limits a paging client asks for, in turn at random: up to the largest, 1,000. */
export const PAGE_LIMITS = [1, 20, 100, 250, 500, 1000];

/** One request of a paging client: its path, and the largest page it may get. */
export function pagingPath(
  random: () => number,
  count: number,
  limits = PAGE_LIMITS,
): { path: string; limit: number } {
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)] as T;
  const limit = pick(limits);
  const params = new URLSearchParams({ limit: String(limit) });
  const shape = random();
  if (shape < 0.5) params.set('offset', String(Math.floor(random() * 10_001)));
  if (random() < 0.25) params.set('genre', random() < 0.5 ? QUARTER_GENRE : 'Jazz');
  if (random() < 0.2) params.set('artist', cdArtist(Math.floor(random() * count), count));
  if (random() < 0.25) params.set('before', String(1950 + Math.floor(random() * 80)));
  if (random() < 0.5) params.set('sort', pick(SORTS));
  if (random() < 0.1) params.set('fields', 'title');
  return { path: `/cds?${params}`, limit };
}

export interface Timed {
  status: number | string;
  ms: number;
  retryAfter?: string | undefined;
  link?: string | undefined;
}

function timedGet(url: string, agent: Agent, timeoutMs: number): Promise<Timed> {
  const started = performance.now();
  return new Promise((resolve) => {
    const done = (status: number | string, headers: Record<string, unknown> = {}) =>
      resolve({
        status,
        ms: performance.now() - started,
        retryAfter: headers['retry-after'] as string | undefined,
        link: headers.link as string | undefined,
      });
    const request = get(url, { agent, timeout: timeoutMs }, (response) => {
      response.resume();
      response.on('end', () => done(response.statusCode ?? 0, response.headers));
      response.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
    });
    request.on('timeout', () =>
      request.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })),
    );
    request.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
  });
}

export interface PagingReport {
  requests: number;
  statuses: Record<string, number>;
  /** 503s that carried Retry-After. */
  retryAfter503: number;
  all: { p50Ms: number; p99Ms: number; maxMs: number };
  /** Pages of at most 100 CDs that were answered 200. */
  smallPages: { count: number; p50Ms: number; p99Ms: number; maxMs: number };
  probes: Record<
    'readyz' | 'livez',
    { count: number; failed: number; p99Ms: number; maxMs: number }
  >;
  /**
   * The service's event-loop delay over the run, from its /metrics (prom-client's
   * monitorEventLoopDelay, reset at each scrape: one scrape before the run, one after).
   */
  eventLoopDelay: { p99Ms: number; maxMs: number } | undefined;
}

/** The event loop's delay since the last scrape, from prom-client's gauges; undefined without /metrics. */
async function eventLoopDelay(url: string): Promise<{ p99Ms: number; maxMs: number } | undefined> {
  const response = await fetch(`${url}/metrics`).catch(() => undefined);
  if (!response?.ok) return undefined;
  const text = await response.text();
  const gauge = (name: string) =>
    Math.round(1000 * Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1]));
  return {
    p99Ms: gauge('nodejs_eventloop_lag_p99_seconds'),
    maxMs: gauge('nodejs_eventloop_lag_max_seconds'),
  };
}

const summary = (times: number[]) => {
  times.sort((a, b) => a - b);
  return {
    p50Ms: Math.round(percentile(times, 50)),
    p99Ms: Math.round(percentile(times, 99)),
    maxMs: Math.round(times[times.length - 1] ?? Number.NaN),
  };
};

export interface PagingOptions {
  clients?: number;
  seconds?: number;
  /** How many CDs the service holds (the generated collection's artists follow from it). */
  count?: number;
  limits?: number[];
  timeoutMs?: number;
}

type Pages = Pick<PagingReport, 'requests' | 'statuses' | 'retryAfter503' | 'all' | 'smallPages'>;

/**
 * `clients` loops of paging requests against `url` for `seconds`, each client following the
 * `next` link of its page one time in four.
 */
async function page(
  url: string,
  {
    clients = 64,
    seconds = 60,
    count = 61_000,
    limits = PAGE_LIMITS,
    timeoutMs = 30_000,
  }: PagingOptions,
): Promise<Pages> {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const end = performance.now() + seconds * 1000;
  const statuses: Record<string, number> = {};
  const all: number[] = [];
  const small: number[] = [];
  let retryAfter503 = 0;
  const client = async (index: number) => {
    const random = seeded(index + 1);
    let next: string | undefined;
    while (performance.now() < end) {
      const { path, limit } = pagingPath(random, count, limits);
      const result = await timedGet(url + (next ?? path), agent, timeoutMs);
      statuses[result.status] = (statuses[result.status] ?? 0) + 1;
      all.push(result.ms);
      if (result.status === 200 && limit <= 100 && !next) small.push(result.ms);
      if (result.status === 503 && result.retryAfter) retryAfter503 += 1;
      const link = /<([^>]+)>;\s*rel="next"/.exec(result.link ?? '')?.[1];
      next = link && random() < 0.25 ? link : undefined;
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
  agent.destroy();
  return {
    requests: all.length,
    statuses,
    retryAfter503,
    all: summary(all),
    smallPages: { count: small.length, ...summary(small) },
  };
}

/**
 * Asks `/readyz` and `/livez` once a second until `end`, each on a new connection as the edge does;
 * a probe fails when it is not a 200 within `timeoutMs`.
 */
async function probe(url: string, end: number, timeoutMs: number): Promise<PagingReport['probes']> {
  const agent = new Agent({ keepAlive: false });
  const names = ['readyz', 'livez'] as const;
  const times = { readyz: [] as number[], livez: [] as number[] };
  const failed = { readyz: 0, livez: 0 };
  while (performance.now() < end) {
    const started = performance.now();
    await Promise.all(
      names.map(async (name) => {
        const result = await timedGet(`${url}/${name}`, agent, timeoutMs);
        times[name].push(result.ms);
        if (result.status !== 200) failed[name] += 1;
      }),
    );
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, 1000 - (performance.now() - started))),
    );
  }
  const of = (name: (typeof names)[number]) => {
    const { p99Ms, maxMs } = summary(times[name]);
    return { count: times[name].length, failed: failed[name], p99Ms, maxMs };
  };
  return { readyz: of('readyz'), livez: of('livez') };
}

const LOAD_FLAG = '--pages-only';

/**
 * The paging load (in a process of its own, so that reading 64 clients' pages does not delay the
 * probes' own timing) beside the probes, and the service's event-loop delay over the run.
 */
export async function pageUnderLoad(
  url: string,
  options: PagingOptions & { probeTimeoutMs?: number } = {},
): Promise<PagingReport> {
  const { probeTimeoutMs = 2000, ...paging } = options;
  await eventLoopDelay(url);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), LOAD_FLAG, url, JSON.stringify(paging)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  const exited = once(child, 'close');
  const probes = await probe(
    url,
    performance.now() + (paging.seconds ?? 60) * 1000,
    probeTimeoutMs,
  );
  const [code] = await exited;
  if (code !== 0) throw new Error(`the paging load exited with ${code}: ${output}`);
  const pages = JSON.parse(output) as Pages;
  return { ...pages, probes, eventLoopDelay: await eventLoopDelay(url) };
}

if (process.argv[2] === LOAD_FLAG) {
  const [url = '', options = '{}'] = process.argv.slice(3);
  console.log(JSON.stringify(await page(url, JSON.parse(options))));
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const [url, clients = '64', seconds = '60', count = '61000'] = process.argv.slice(2);
  if (!url) {
    console.error('usage: node --import tsx src/cd-paging.ts URL [CLIENTS] [SECONDS] [CDS]');
    process.exit(2);
  }
  const report = await pageUnderLoad(url, {
    clients: Number(clients),
    seconds: Number(seconds),
    count: Number(count),
  });
  console.log(JSON.stringify(report, null, 1));
}
