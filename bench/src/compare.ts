// Alternating runs: each contender is loaded in turn, round after round, so that the machine's
// drift (other processes, frequency) falls on all of them alike; medians of the rounds, and
// ratios taken round by round (each pair measured seconds apart) then their median.
import { type LoadResult, load, type Request } from './load.js';

export interface RunSettings {
  rounds: number;
  seconds: number;
  /** Each contender is loaded this long before the first round (JIT, caches, heap). */
  warmSeconds: number;
  connections: number;
}

export interface Contender {
  url: string;
  request: Request | Request[];
  /** The serving process's CPU time so far (RunningProcess.cpuUs): each round then records its CPU time per request. */
  cpuUs?: () => number;
}

/** One contender's round: its load, and its process's CPU time per request when known. */
export type Round = LoadResult & { cpuUsPerRequest?: number };

/**
 * Loads the contenders in turn for `rounds` rounds; the first of each round moves on by one.
 * `warmed` is called once every contender is warm, before the first round.
 */
export async function alternate<K extends string>(
  contenders: Record<K, Contender>,
  settings: RunSettings,
  warmed?: () => void,
): Promise<Record<K, Round[]>> {
  const names = Object.keys(contenders) as K[];
  const runs = Object.fromEntries(names.map((name) => [name, []])) as unknown as Record<K, Round[]>;
  const run = async (name: K, seconds: number): Promise<Round> => {
    const { url, request, cpuUs } = contenders[name];
    const before = cpuUs?.();
    const result = await load(url, request, { connections: settings.connections, seconds });
    if (!cpuUs || before === undefined) return result;
    return { ...result, cpuUsPerRequest: (cpuUs() - before) / result.total };
  };
  for (const name of names) await run(name, settings.warmSeconds);
  warmed?.();
  for (let round = 0; round < settings.rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length] as K;
      runs[name].push(await run(name, settings.seconds));
    }
  }
  return runs;
}

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export interface Summary {
  /** Medians of the rounds. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Sums over the rounds. */
  total: number;
  failed: number;
  non2xx: number;
}

export function summarize(runs: LoadResult[]): Summary {
  const sum = (pick: (r: LoadResult) => number) => runs.reduce((all, r) => all + pick(r), 0);
  return {
    rps: median(runs.map((r) => r.requestsPerSecond)),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    total: sum((r) => r.total),
    failed: sum((r) => r.errors + r.timeouts),
    non2xx: sum((r) => r.non2xx),
  };
}

/** The median, over the rounds, of a's rate over b's in the same round. */
export function ratio(a: LoadResult[], b: LoadResult[]): number {
  return median(
    a.map((run, round) => run.requestsPerSecond / (b[round]?.requestsPerSecond ?? Number.NaN)),
  );
}
