import { writeFileSync } from 'node:fs';
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

// Words of titles, studios and descriptions; none starts with x (the rare words' letter).
const ADJECTIVES = [
  'Ancient',
  'Broken',
  'Crimson',
  'Dark',
  'Eternal',
  'Fallen',
  'Golden',
  'Hidden',
  'Iron',
  'Jade',
  'Kinetic',
  'Lost',
  'Mystic',
  'Neon',
  'Outer',
  'Pale',
  'Quiet',
  'Rogue',
  'Silent',
  'Savage',
  'Shattered',
  'Stellar',
  'Twisted',
  'Ultra',
  'Velvet',
  'Wild',
  'Young',
  'Zero',
];
const STUDIO_NAMES = [
  'Amber',
  'Blue Fox',
  'Copper',
  'Driftwood',
  'Ember',
  'Fjord',
  'Granite',
  'Harbor',
  'Indigo',
  'Juniper',
  'Kestrel',
  'Lantern',
  'Meadow',
  'Nimbus',
  'Orchard',
  'Pebble',
  'Quarry',
  'Raven',
  'Saffron',
  'Sparrow',
  'Summit',
  'Thistle',
  'Umber',
  'Vantage',
  'Willow',
  'Yonder',
  'Zephyr',
];
const STUDIO_KINDS = ['Studio', 'Games', 'Software', 'Interactive', 'Works', 'Entertainment'];
const SETTINGS = [
  'a drowned city',
  'the frozen north',
  'a space station adrift',
  'a haunted forest',
  'a sprawling desert empire',
  'the ruins of an old kingdom',
  'a neon-lit megacity',
  'a chain of volcanic islands',
  'an abandoned research base',
  'a peaceful farming valley',
];
const HEROES = [
  'a retired soldier',
  'two estranged siblings',
  'a young cartographer',
  'a rogue android',
  'a disgraced knight',
  'a crew of smugglers',
  'a lone courier',
  'a curious scientist',
];
const VERBS = ['explore', 'defend', 'rebuild', 'escape', 'uncover the secrets of', 'conquer'];
const FEATURES = [
  'Its combat rewards patience and timing more than quick reflexes.',
  'A branching story reacts to every choice, and no two endings are alike.',
  'Crafting, trading and a handful of side quests fill the hours between battles.',
  'The hand-drawn art and an orchestral score give every region its own mood.',
  'Co-operative play lets up to four friends share the whole campaign online.',
  'Puzzles grow from simple switches into machines that span entire levels.',
];

/** The seed's genres. */
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
  const cds = Array.from({ length: count }, (_, index) => ({
    // About the seed's 14 characters: "Silent Harbor".
    title: `${at(ADJECTIVES, index)} ${at(STUDIO_NAMES, index * 11)}`,
    artist: cdArtist(index, count),
    genre:
      index % 4 === 0 ? QUARTER_GENRE : (OTHER_CD_GENRES[index % OTHER_CD_GENRES.length] as string),
    releaseYear: 1950 + (index % 75),
  }));
  const file = join(dir, `cds-${count}.json`);
  writeFileSync(file, JSON.stringify(cds));
  return file;
}
