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

/** How many games share each rare title word, at every catalogue size. */
export const GAMES_PER_RARE_WORD = 50;

/**
 * The rare word in the title of the game at `index`: one of count / 50 words, so that a search
 * for one matches 50 games whatever the size. Five letters starting with `q`: no other word of
 * a generated game starts with q, and none of these words is a prefix of another.
 */
export function rareWord(index: number, count: number): string {
  let n = index % Math.max(1, Math.floor(count / GAMES_PER_RARE_WORD));
  let word = '';
  for (let i = 0; i < 4; i++) {
    word = String.fromCharCode(97 + (n % 26)) + word;
    n = Math.floor(n / 26);
  }
  return `q${word}`;
}

/** A games seed file of `count` generated games (never committed: written to `dir`). */
export function writeSyntheticGames(dir: string, count: number): string {
  const random = seeded(count);
  const games = Array.from({ length: count }, (_, index) => {
    const unrated = random() < 0.05;
    return {
      id: index + 1,
      title: `Generated Game ${index + 1} ${rareWord(index, count)}`,
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

/** The genre that holds a quarter of the generated CDs, at every size. */
export const QUARTER_GENRE = 'Rock';
const OTHER_CD_GENRES = ['Jazz', 'Pop', 'Classical', 'Electronic', 'Folk', 'Blues'];

/** Each artist has this many of the generated CDs, at every size. */
export const CDS_PER_ARTIST = 20;

/** The artist of the generated CD at `index`. */
export const cdArtist = (index: number, count: number) =>
  `Artist ${index % Math.max(1, Math.floor(count / CDS_PER_ARTIST))}`;

/**
 * A CD seed file of `count` generated CDs (never committed: written to `dir`), for the service
 * to load into an empty store at its first start (CD_SEED_FILE): every fourth one of
 * QUARTER_GENRE, CDS_PER_ARTIST per artist, release years 1950 to 2024 in turn.
 */
export function writeSyntheticCds(dir: string, count: number): string {
  const cds = Array.from({ length: count }, (_, index) => ({
    title: `Generated Album ${index + 1}`,
    artist: cdArtist(index, count),
    genre:
      index % 4 === 0 ? QUARTER_GENRE : (OTHER_CD_GENRES[index % OTHER_CD_GENRES.length] as string),
    releaseYear: 1950 + (index % 75),
  }));
  const file = join(dir, `cds-${count}.json`);
  writeFileSync(file, JSON.stringify(cds));
  return file;
}
