import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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

/** The word in every generated game's title. */
export const WORD_IN_EVERY_TITLE = 'quest';

/**
 * The rare word in the title of the game at `index`: one of count / 50 words, so that a search
 * for one matches 50 games whatever the size. Five letters starting with `x`: no other word of
 * a generated game starts with x, and none of these words is a prefix of another.
 */
export function rareWord(index: number, count: number): string {
  let n = index % rareWordCount(count);
  let word = '';
  for (let i = 0; i < 4; i++) {
    word = String.fromCharCode(97 + (n % 26)) + word;
    n = Math.floor(n / 26);
  }
  return `x${word}`;
}

const rareWordCount = (count: number) => Math.max(1, Math.floor(count / GAMES_PER_RARE_WORD));

// Words of titles, studios and descriptions (none starts with x, the rare words' letter), and
// the seed's genres.
const WORDS = JSON.parse(
  readFileSync(new URL('./synthetic-words.json', import.meta.url), 'utf8'),
) as Record<
  | 'adjectives'
  | 'studioNames'
  | 'studioKinds'
  | 'settings'
  | 'heroes'
  | 'verbs'
  | 'features'
  | 'genres',
  string[]
>;
const {
  adjectives: ADJECTIVES,
  studioNames: STUDIO_NAMES,
  studioKinds: STUDIO_KINDS,
  settings: SETTINGS,
  heroes: HEROES,
  verbs: VERBS,
  features: FEATURES,
  genres: GENRES,
} = WORDS;

const at = <T>(list: readonly T[], index: number) => list[index % list.length] as T;

/**
 * The title of the game at `index`, about the seed's length (15 characters on average there):
 * an adjective, the word in every title, its rare word and its number among the games that
 * share that word (titles are unique). The same at every size for the same index.
 */
export function gameTitle(index: number, count: number): string {
  const sequel = Math.floor(index / rareWordCount(count)) + 1;
  return `${at(ADJECTIVES, index)} Quest ${rareWord(index, count)} ${sequel}`;
}

/** The developer of the game at `index`: a studio of the seed's length (13 characters). */
export const gameDeveloper = (index: number) =>
  `${at(STUDIO_NAMES, index * 7)} ${at(STUDIO_KINDS, index * 5)}`;

/**
 * A games seed file of `count` generated games (never committed: written to `dir`), with the
 * seed's field sizes: titles of about 20 characters, studios of 13, descriptions of about 300,
 * short descriptions of about 80, the seed's 12 genres. The same file for the same count.
 */
export function writeSyntheticGames(dir: string, count: number): string {
  const random = seeded(count);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  const games = Array.from({ length: count }, (_, index) => {
    const unrated = random() < 0.05;
    const title = gameTitle(index, count);
    const setting = pick(SETTINGS);
    const hero = pick(HEROES);
    return {
      id: index + 1,
      title,
      releaseYear: 1980 + Math.floor(random() * 46),
      rating: unrated ? null : Math.round(random() * 100) / 10,
      description: `${title} follows ${hero} who set out to ${pick(VERBS)} ${setting}. ${pick(FEATURES)} ${pick(FEATURES)} Critics praised its pacing and the care put into ${setting}.`,
      shortDescription: `A tale of ${hero} in ${setting}, told over a long campaign.`,
      developer: gameDeveloper(index),
      genre: at(GENRES, index),
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
  const file = join(dir, `cds-${count}.json`);
  writeFileSync(file, JSON.stringify(syntheticCds(count)));
  return file;
}

/** The generated CDs of a seed of `count` (what writeSyntheticCds writes). */
export function syntheticCds(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    // About the seed's 14 characters: "Silent Harbor".
    title: `${at(ADJECTIVES, index)} ${at(STUDIO_NAMES, index * 11)}`,
    artist: cdArtist(index, count),
    genre:
      index % 4 === 0 ? QUARTER_GENRE : (OTHER_CD_GENRES[index % OTHER_CD_GENRES.length] as string),
    releaseYear: 1950 + (index % 75),
  }));
}

/**
 * A destinations seed file of `count` generated destinations (never committed: written to
 * `dir`), with the seed's field sizes: names of about 10 characters (unique, and so are their
 * URLs), summaries of about 110, 12 activities each with names of about 28 characters and
 * descriptions of about 90, prices of the seed's range. The same file for the same count.
 */
export function writeSyntheticDestinations(dir: string, count: number): string {
  const file = join(dir, `destinations-${count}.json`);
  writeFileSync(file, JSON.stringify(syntheticDestinations(count)));
  return file;
}

/** The activities of each generated destination (the seed has 11 to 13). */
export const ACTIVITIES_PER_DESTINATION = 12;

/** The name of the generated destination at `index`: a word and its number, unique. */
export const destinationName = (index: number) => `${at(STUDIO_NAMES, index)} ${index + 1}`;

/** The generated destinations of a seed of `count` (what writeSyntheticDestinations writes). */
export function syntheticDestinations(count: number) {
  const random = seeded(count);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  return Array.from({ length: count }, (_, index) => ({
    name: destinationName(index),
    country: `${at(ADJECTIVES, index * 3)} Isles`,
    summary: `A city of ${pick(SETTINGS)} where ${pick(HEROES)} and visitors alike come to ${pick(VERBS)} ${pick(SETTINGS)}.`,
    activities: Array.from({ length: ACTIVITIES_PER_DESTINATION }, (_, activity) => {
      const minPrice = 5 + Math.floor(random() * 90);
      return {
        name: `${at(ADJECTIVES, activity)} ${at(STUDIO_NAMES, index + activity)} Walking Tour ${activity + 1}`,
        description: `Set out with ${pick(HEROES)} to ${pick(VERBS)} ${pick(SETTINGS)}, back before the day is out.`,
        minPrice,
        maxPrice: minPrice + 5 + Math.floor(random() * 50),
      };
    }),
  }));
}

/**
 * A seed's own records `times` over, each copy changed by `vary` (copy 0 to times - 1) so that
 * what must stay unique does: the seed's texts, at the seed's size times `times`.
 */
export function timesOver<T>(
  records: readonly T[],
  times: number,
  vary: (record: T, copy: number, index: number) => T,
): T[] {
  return Array.from({ length: times }, (_, copy) =>
    records.map((record, index) => vary(record, copy, copy * records.length + index)),
  ).flat();
}

/**
 * The games of the seed file `seedFile` `times` over (written to `dir`): the seed's own
 * titles, descriptions and developers, each id made unique (1 up) and each title followed by
 * its copy's number ("Hades 17"): no two titles can meet, whatever the seed's titles.
 */
export function writeGamesTimesOver(seedFile: string, dir: string, times: number): string {
  const seed = JSON.parse(readFileSync(seedFile, 'utf8')) as { id: number; title: string }[];
  const games = timesOver(seed, times, (game, copy, index) => ({
    ...game,
    id: index + 1,
    title: `${game.title} ${copy + 1}`,
  }));
  const file = join(dir, `games-seed-times-${times}.json`);
  writeFileSync(file, JSON.stringify(games));
  return file;
}
