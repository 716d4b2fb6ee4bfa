// cd-service's writes: durable POST /cds alone, and a 90/10 read/write mix against the same
// reads alone, alternated on the same process.
import { alternate, median, type RunSettings, ratio, type Summary, summarize } from './compare.js';
import type { LoadResult, Request } from './load.js';

const NEW_CD: Request = {
  method: 'POST',
  path: '/cds',
  body: JSON.stringify({
    title: 'Bench Album',
    artist: 'Bench Artist',
    genre: 'Rock',
    releaseYear: 2001,
  }),
};
export const MIX_READ: Request = { path: '/cds?limit=20' };
export const MIX_CONNECTIONS = 64;

export async function measurePosts(url: string, settings: RunSettings): Promise<Summary> {
  const { posts } = await alternate({ posts: { url, request: NEW_CD } }, settings);
  return summarize(posts);
}

export interface MixResult {
  reads: Summary;
  mix: Summary;
  /** The mix's rate over the reads' rate, round by round. */
  ratio: number;
  /** p99 within the mix, of the reads (200) and of the writes (201). */
  readP99Ms: number;
  writeP99Ms: number;
  /** The share of writes among the mix's answers (a run may end in the middle of a cycle). */
  writeShare: number;
}

/**
 * Every connection sends 1 write then 9 reads, over and over (the mix), or 10 reads (reads
 * alone); MIX_CONNECTIONS connections. The write comes first so that even a short run writes.
 */
export async function measureMix(url: string, settings: RunSettings): Promise<MixResult> {
  const reads = Array<Request>(10).fill(MIX_READ);
  const mixed = [NEW_CD, ...reads.slice(1)];
  const runs = await alternate(
    { reads: { url, request: reads }, mix: { url, request: mixed } },
    { ...settings, connections: MIX_CONNECTIONS },
  );
  const p99Of = (status: number) =>
    median(runs.mix.map((run: LoadResult) => run.byStatus[status]?.p99Ms ?? Number.NaN));
  return {
    reads: summarize(runs.reads),
    mix: summarize(runs.mix),
    ratio: ratio(runs.mix, runs.reads),
    readP99Ms: p99Of(200),
    writeP99Ms: p99Of(201),
    writeShare:
      runs.mix.reduce((sum, run) => sum + (run.byStatus[201]?.count ?? 0), 0) /
      runs.mix.reduce((sum, run) => sum + run.total, 0),
  };
}
