import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const GENRES = [
  'Action',
  'Adventure',
  'RPG',
  'Strategy',
  'Shooter',
  'Platformer',
  'Puzzle',
  'Racing',
  'Sports',
  'Simulation',
  'Horror',
  'Fighting',
];

/** A deterministic pseudo-random source, so that every run measures the same data. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A games seed file of `count` generated games (never committed: written to `dir`). */
export function writeSyntheticGames(dir: string, count: number): string {
  const random = seeded(count);
  const games = Array.from({ length: count }, (_, index) => {
    const unrated = random() < 0.05;
    return {
      id: index + 1,
      title: `Generated Game ${index + 1}`,
      releaseYear: 1980 + Math.floor(random() * 46),
      rating: unrated ? null : Math.round(random() * 100) / 10,
      description:
        'A generated game for the benchmark. It exists only to make the catalogue large.',
      shortDescription: 'A generated game for the benchmark.',
      developer: `Studio ${Math.floor(random() * 500)}`,
      genre: GENRES[index % GENRES.length],
      reviewCount: unrated ? 0 : Math.floor(10 ** (1 + random() * 5)),
    };
  });
  const file = join(dir, `games-${count}.json`);
  writeFileSync(file, JSON.stringify(games));
  return file;
}

/** A CD store of `count` records, written through the service's own store; CD_SEED must then be false. */
export async function writeSyntheticCds(dir: string, count: number): Promise<string> {
  const { openSqliteStore } = await import('../../cd-service/src/store/sqlite.js');
  const { newRecord } = await import('../../cd-service/src/cd/records.js');
  const file = join(dir, `cds-${count}.sqlite`);
  const store = openSqliteStore(file);
  const now = new Date();
  const records = Array.from({ length: count }, (_, index) =>
    newRecord(
      {
        title: `Generated Album ${index + 1}`,
        // Twenty albums per artist at every size, so that an artist's answer is the same size.
        artist: `Artist ${index % (count / 20)}`,
        genre: GENRES[index % GENRES.length] as string,
        releaseYear: 1950 + (index % 75),
      },
      randomUUID(),
      now,
    ),
  );
  await store.seedOnce(records);
  await store.close();
  return file;
}
