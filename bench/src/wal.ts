// cd-service's write-ahead log under steady writes: the service on a large generated collection,
// several clients writing for minutes (POST, PUT with and without If-Match, DELETE, some reads),
// the sizes of the -wal file and of the database sampled every second. `--wal` runs this part alone.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { load, type Request, send } from './load.js';
import { startService } from './process.js';
import { seeded, writeSyntheticCds } from './synthetic.js';

/** The most the -wal file may reach while the writes run. */
export const MAX_WAL_MB = 64;
export const WAL_CLIENTS = 8;
const MB = 1024 * 1024;

export interface WalResult {
  cds: number;
  seconds: number;
  clients: number;
  /** The largest -wal file of the samples (one a second), MB. */
  maxWalMb: number;
  /** The -wal file and the database at the end of the writes (service running), and after its stop. */
  finalWalMb: number;
  finalDbMb: number;
  stoppedWalMb: number;
  /** The database file once seeded, before the writes. */
  seededDbMb: number;
  samples: number;
  /** Answered writes a second (POST 201, PUT 200, DELETE 204), and reads. */
  writesPerSecond: number;
  readsPerSecond: number;
  /** Each kind of request of a client's turn: answers as expected, and the others by status. */
  kinds: Record<string, { ok: number; failed: Record<number, number> }>;
  /** Requests that got no answer (connection errors, timeouts). */
  unanswered: number;
}

type Context = Record<string, unknown>;
type Headers = Record<string, string | string[]>;

const etagOf = (headers: Headers) => {
  const key = Object.keys(headers).find((name) => name.toLowerCase() === 'etag');
  return key === undefined ? undefined : String(headers[key]);
};

/** The size of a file in bytes, 0 when there is none. */
const sizeOf = (file: string) => statSync(file, { throwIfNoEntry: false })?.size ?? 0;

/**
 * One client's turn: it creates a CD, reads it, changes it with If-Match (the ETag it just
 * read) and without, changes one of the seeded CDs, reads a list page, and deletes its CD with
 * If-Match: the collection keeps its size. Each answer is counted by kind in `kinds`.
 */
function clientTurn(seededIds: string[], kinds: WalResult['kinds']): Request[] {
  const pick = seeded(7);
  const counted =
    (
      kind: string,
      expected: number,
      keep?: (body: string, context: Context, headers: Headers) => void,
    ) =>
    (status: number, body: string, context: Context, headers: Headers) => {
      kinds[kind] ??= { ok: 0, failed: {} };
      const counts = kinds[kind];
      if (status === expected) {
        counts.ok += 1;
        keep?.(body, context, headers);
      } else counts.failed[status] = (counts.failed[status] ?? 0) + 1;
    };
  const keepEtag = (_body: string, context: Context, headers: Headers) => {
    context.etag = etagOf(headers);
  };
  /** The request on the CD this client created; none (the turn starts again) when its POST failed. */
  const onOwnCd =
    (ifMatch: boolean) =>
    (request: autocannon.Request, context: Context): autocannon.Request | undefined => {
      if (typeof context.id !== 'string') return undefined;
      const headers = { ...request.headers, ...(ifMatch && { 'if-match': String(context.etag) }) };
      return { ...request, path: `/cds/${context.id}`, headers };
    };
  const change = (genre: string, releaseYear: number) => JSON.stringify({ genre, releaseYear });
  return [
    {
      method: 'POST',
      path: '/cds',
      body: JSON.stringify({
        title: 'Steady Writes',
        artist: 'Bench Artist',
        genre: 'Rock',
        releaseYear: 2001,
      }),
      onResponse: counted('POST', 201, (body, context, headers) => {
        context.id = (JSON.parse(body) as { id: string }).id;
        keepEtag(body, context, headers);
      }),
    },
    { path: '/cds/:id', setupRequest: onOwnCd(false), onResponse: counted('GET', 200, keepEtag) },
    {
      method: 'PUT',
      path: '/cds/:id',
      body: change('Jazz', 1959),
      setupRequest: onOwnCd(true),
      onResponse: counted('PUT with If-Match', 200, keepEtag),
    },
    {
      method: 'PUT',
      path: '/cds/:id',
      body: change('Folk', 1971),
      setupRequest: onOwnCd(false),
      onResponse: counted('PUT', 200, keepEtag),
    },
    {
      method: 'PUT',
      path: '/cds/:seeded',
      body: change('Blues', 1988),
      setupRequest: (request) => ({
        ...request,
        path: `/cds/${seededIds[Math.floor(pick() * seededIds.length)]}`,
      }),
      onResponse: counted('PUT of a seeded CD', 200),
    },
    { path: '/cds?genre=Jazz&limit=20', onResponse: counted('GET list', 200) },
    {
      method: 'DELETE',
      path: '/cds/:id',
      setupRequest: onOwnCd(true),
      onResponse: counted('DELETE with If-Match', 204),
    },
  ];
}

const READS = new Set(['GET', 'GET list']);

/**
 * Starts cd-service seeded with `cds` generated CDs in `dir`, then WAL_CLIENTS clients loop
 * clientTurn for `seconds` while the -wal file's size is sampled every second.
 */
export async function walUnderWrites(
  dir: string,
  env: Record<string, string>,
  { cds, seconds }: { cds: number; seconds: number },
): Promise<WalResult> {
  const file = join(dir, `cds-wal-${cds}.sqlite`);
  const wal = `${file}-wal`;
  const running = await startService('cd-service', {
    ...env,
    CD_DB_PATH: file,
    CD_SEED: 'true',
    CD_SEED_FILE: writeSyntheticCds(dir, cds),
  });
  try {
    const seededDbMb = sizeOf(file) / MB;
    const page = await send(running.url, { path: '/cds?limit=1000' });
    const seededIds = (JSON.parse(page.body.toString()) as { id: string }[]).map((cd) => cd.id);
    const kinds: WalResult['kinds'] = {};
    const walSizes: number[] = [];
    const sample = setInterval(() => walSizes.push(sizeOf(wal)), 1000);
    let result: Awaited<ReturnType<typeof load>>;
    try {
      result = await load(running.url, clientTurn(seededIds, kinds), {
        connections: WAL_CLIENTS,
        seconds,
      });
    } finally {
      clearInterval(sample);
    }
    walSizes.push(sizeOf(wal));
    const finalWalMb = sizeOf(wal) / MB;
    const finalDbMb = sizeOf(file) / MB;
    await running.stop();
    const answered = (read: boolean) =>
      Object.entries(kinds)
        .filter(([kind]) => READS.has(kind) === read)
        .reduce((sum, [, counts]) => sum + counts.ok, 0);
    return {
      cds,
      seconds,
      clients: WAL_CLIENTS,
      maxWalMb: Math.max(...walSizes) / MB,
      finalWalMb,
      finalDbMb,
      stoppedWalMb: sizeOf(wal) / MB,
      seededDbMb,
      samples: walSizes.length,
      writesPerSecond: answered(false) / seconds,
      readsPerSecond: answered(true) / seconds,
      kinds,
      unanswered: result.errors + result.timeouts,
    };
  } finally {
    await running.stop();
  }
}

/** Write answers that were not the expected status, and requests not answered. */
export const walFailures = (result: WalResult) =>
  result.unanswered +
  Object.values(result.kinds).reduce(
    (sum, { failed }) => sum + Object.values(failed).reduce((a, b) => a + b, 0),
    0,
  );

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function walVerdict(result: WalResult): string {
  const met = result.maxWalMb <= MAX_WAL_MB && walFailures(result) === 0;
  return `${met ? 'MET' : 'MISSED'} (<= ${MAX_WAL_MB} MB, no failed write) cd WAL under ${fmt(result.seconds)} s of steady writes at ${fmt(result.cds)} CDs: at most ${fmt(result.maxWalMb, 1)} MB, ${fmt(result.writesPerSecond)} writes/s, ${fmt(walFailures(result))} failed`;
}

export const WAL_HEADING = '## CD write-ahead log under steady writes';

/** The WAL section of RESULTS.md. */
export function walSection(result: WalResult): string[] {
  const failed = (counts: Record<number, number>) =>
    Object.entries(counts)
      .map(([status, n]) => `${fmt(n)} x ${status}`)
      .join(', ') || '-';
  return [
    WAL_HEADING,
    '',
    `cd-service on SQLite seeded with ${fmt(result.cds)} generated CDs (${fmt(result.seededDbMb)} MB), then ${result.clients} clients for ${fmt(result.seconds)} s, each looping: \`POST /cds\`, \`GET\` of that CD, \`PUT\` of it with \`If-Match\` (its ETag) and without, \`PUT\` of a seeded CD, \`GET /cds?genre=Jazz&limit=20\`, \`DELETE\` of its CD with \`If-Match\`. The \`-wal\` file's size sampled every second (${fmt(result.samples)} samples). \`make bench-wal\` runs this part alone.`,
    '',
    `- ${walVerdict(result)}`,
    '',
    '| largest WAL | WAL at the end | database at the end | WAL after the stop | writes/s | reads/s | requests unanswered |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    `| ${fmt(result.maxWalMb, 1)} MB | ${fmt(result.finalWalMb, 1)} MB | ${fmt(result.finalDbMb, 1)} MB | ${fmt(result.stoppedWalMb, 1)} MB | ${fmt(result.writesPerSecond)} | ${fmt(result.readsPerSecond)} | ${fmt(result.unanswered)} |`,
    '',
    '| request | answered as expected | other answers |',
    '|---|---:|---|',
    ...Object.entries(result.kinds).map(
      ([kind, counts]) => `| ${kind} | ${fmt(counts.ok)} | ${failed(counts.failed)} |`,
    ),
    '',
  ];
}
