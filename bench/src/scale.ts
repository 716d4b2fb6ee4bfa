// How the time of a request grows with the data: the same service started on 1,000 and on
// 100,000 generated records, both running, the same URLs alternated between them.
import { join } from 'node:path';
import { alternate, type RunSettings, ratio, type Summary, summarize } from './compare.js';
import { send } from './load.js';
import { type RunningProcess, type ServiceName, startService } from './process.js';
import {
  cdArtist,
  GAMES_PER_RARE_WORD,
  QUARTER_GENRE,
  rareWord,
  writeSyntheticCds,
  writeSyntheticGames,
} from './synthetic.js';

export const SMALL = 1_000;
export const LARGE = 100_000;
/** The most the time of a request may grow from SMALL to LARGE records. */
export const MAX_GROWTH = 1.5;

export interface GrowthRow {
  service: ServiceName;
  what: string;
  path: string;
  small: Summary;
  large: Summary;
  /** The time of a request at LARGE over the time at SMALL (SMALL's rate over LARGE's). */
  growth: number;
  /** MAX_GROWTH for a target, none when reported. */
  target?: number;
}

export interface ScaleResult {
  rows: GrowthRow[];
  /** Start to listening, ms, at each size. */
  startMs: { small: number; large: number };
}

interface Query {
  what: string;
  path: string;
  target?: boolean;
}

const artist = encodeURIComponent(cdArtist(7, SMALL));
const year = 1960;

export const CD_QUERIES: Query[] = [
  { what: 'all CDs, first 20', path: '/cds?limit=20', target: true },
  {
    what: `genre holding a quarter of the CDs (${QUARTER_GENRE})`,
    path: `/cds?genre=${QUARTER_GENRE}&limit=20`,
    target: true,
  },
  { what: 'one artist (20 CDs)', path: `/cds?artist=${artist}&limit=20`, target: true },
  {
    what: 'genre and artist',
    path: `/cds?genre=${QUARTER_GENRE}&artist=${artist}&limit=20`,
  },
  { what: `genre and released before ${year}`, path: `/cds?genre=Jazz&before=${year}&limit=20` },
  { what: `released before ${year}`, path: `/cds?before=${year}&limit=20` },
];

export const GAMES_QUERIES: Query[] = [
  {
    what: `search for a rare word (${GAMES_PER_RARE_WORD} matches at each size), first 20`,
    path: `/api/games?q=${rareWord(0, SMALL)}&limit=20`,
    target: true,
  },
  { what: 'search for a word every game has, first 20', path: '/api/games?q=generated&limit=20' },
];

/** Starts the service at both sizes, alternates every query between them, stops them. */
async function compareSizes(
  service: ServiceName,
  envFor: (size: number) => Record<string, string>,
  queries: Query[],
  settings: RunSettings,
): Promise<ScaleResult> {
  const started: RunningProcess[] = [];
  try {
    for (const size of [SMALL, LARGE]) started.push(await startService(service, envFor(size)));
    const [small, large] = started as [RunningProcess, RunningProcess];
    const rows: GrowthRow[] = [];
    for (const { what, path, target } of queries) {
      process.stderr.write(`  ${service} at ${SMALL} and ${LARGE}: ${path}\n`);
      for (const { url } of [small, large]) {
        const { status } = await send(url, { path });
        if (status !== 200) throw new Error(`${service} answers ${path} with ${status}`);
      }
      const runs = await alternate(
        {
          small: { url: small.url, request: { path } },
          large: { url: large.url, request: { path } },
        },
        settings,
      );
      rows.push({
        service,
        what,
        path,
        small: summarize(runs.small),
        large: summarize(runs.large),
        growth: ratio(runs.small, runs.large),
        ...(target && { target: MAX_GROWTH }),
      });
    }
    return { rows, startMs: { small: small.startMs, large: large.startMs } };
  } finally {
    for (const running of started) await running.stop();
  }
}

export function cdsAtScale(
  dir: string,
  env: Record<string, string>,
  settings: RunSettings,
  queries = CD_QUERIES,
): Promise<ScaleResult> {
  return compareSizes(
    'cd-service',
    (size) => ({
      ...env,
      CD_DB_PATH: join(dir, `cds-${size}.sqlite`),
      CD_SEED: 'true',
      CD_SEED_FILE: writeSyntheticCds(dir, size),
    }),
    queries,
    settings,
  );
}

export function gamesAtScale(
  dir: string,
  env: Record<string, string>,
  settings: RunSettings,
  queries = GAMES_QUERIES,
): Promise<ScaleResult> {
  return compareSizes(
    'games-service',
    (size) => ({ ...env, GAMES_FILE: writeSyntheticGames(dir, size) }),
    queries,
    settings,
  );
}
