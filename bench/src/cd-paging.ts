import { Agent, get } from 'node:http';
import { performance } from 'node:perf_hooks';
import { percentile } from './load.js';
import { cdArtist, QUARTER_GENRE, seeded } from './synthetic.js';

/**
 * Clients paging `GET /cds` as a hostile user would: every documented parameter, limits up to
 * 1,000, offsets up to 10,000, cursors followed from `Link`; and a prober asking `/readyz` and
 * `/livez` the way the edge does (one at a time, every second), to see whether the service still
 * answers it while the pages are read.
 *   node --import tsx src/cd-paging.ts URL [CLIENTS=64] [SECONDS=60] [CDS=61000]
 */

const SORTS = ['title', '-title', 'artist', '-artist', 'releaseYear', '-releaseYear'];
const LIMITS = [1, 20, 100, 250, 500, 1000];

/** One request of a paging client: its path, and the largest page it may get. */
export function pagingPath(random: () => number, count: number): { path: string; limit: number } {
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)] as T;
  const limit = pick(LIMITS);
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

/**
 * `clients` loops of paging requests against `url` for `seconds`, each client following the
 * `next` link of its page one time in four, and one prober of /readyz and /livez each second
 * (a probe fails when it is not a 200 within `probeTimeoutMs`, the edge's 2 s).
 */
export async function pageUnderLoad(
  url: string,
  {
    clients = 64,
    seconds = 60,
    count = 61_000,
    probeTimeoutMs = 2000,
    timeoutMs = 30_000,
  }: {
    clients?: number;
    seconds?: number;
    count?: number;
    probeTimeoutMs?: number;
    timeoutMs?: number;
  } = {},
): Promise<PagingReport> {
  await eventLoopDelay(url);
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const probeAgent = new Agent({ keepAlive: false });
  const end = performance.now() + seconds * 1000;
  const statuses: Record<string, number> = {};
  const all: number[] = [];
  const small: number[] = [];
  let retryAfter503 = 0;
  const client = async (index: number) => {
    const random = seeded(index + 1);
    let next: string | undefined;
    while (performance.now() < end) {
      const { path, limit } = pagingPath(random, count);
      const target = next ?? path;
      const result = await timedGet(url + target, agent, timeoutMs);
      statuses[result.status] = (statuses[result.status] ?? 0) + 1;
      all.push(result.ms);
      if (result.status === 200 && limit <= 100 && !next) small.push(result.ms);
      if (result.status === 503 && result.retryAfter) retryAfter503 += 1;
      const link = /<([^>]+)>;\s*rel="next"/.exec(result.link ?? '')?.[1];
      next = link && random() < 0.25 ? link : undefined;
    }
  };
  const probes = { readyz: [] as number[], livez: [] as number[] };
  const failed = { readyz: 0, livez: 0 };
  const prober = async () => {
    while (performance.now() < end) {
      const started = performance.now();
      await Promise.all(
        (['readyz', 'livez'] as const).map(async (name) => {
          const result = await timedGet(`${url}/${name}`, probeAgent, probeTimeoutMs);
          probes[name].push(result.ms);
          if (result.status !== 200) failed[name] += 1;
        }),
      );
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, 1000 - (performance.now() - started))),
      );
    }
  };
  await Promise.all([...Array.from({ length: clients }, (_, i) => client(i)), prober()]);
  agent.destroy();
  const delay = await eventLoopDelay(url);
  const probeSummary = (name: 'readyz' | 'livez') => {
    const { p99Ms, maxMs } = summary(probes[name]);
    return { count: probes[name].length, failed: failed[name], p99Ms, maxMs };
  };
  return {
    requests: all.length,
    statuses,
    retryAfter503,
    all: summary(all),
    smallPages: { count: small.length, ...summary(small) },
    probes: { readyz: probeSummary('readyz'), livez: probeSummary('livez') },
    eventLoopDelay: delay,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
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
