// The data of containers/thousandfold.sh: every seed TIMES over (1,000 by default), written to
// DIR, with what the load needs to know of it (manifest.json: the counts, words to search,
// genres, artists, destination names).
//   node --import tsx src/thousandfold-data.ts DIR [TIMES]
// games.json, destinations.json and cds.json are generated with the seeds' field sizes
// (synthetic.ts); games-seed-times.json is the games seed's own texts TIMES over.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CDS_PER_ARTIST,
  cdArtist,
  destinationName,
  GAMES_PER_RARE_WORD,
  gameDeveloper,
  QUARTER_GENRE,
  rareWord,
  WORD_IN_EVERY_TITLE,
  writeGamesTimesOver,
  writeSyntheticCds,
  writeSyntheticDestinations,
  writeSyntheticGames,
} from './synthetic.js';

const [dir, timesArgument = '1000'] = process.argv.slice(2);
const times = Number(timesArgument);
if (!dir || !Number.isInteger(times) || times < 1) {
  console.error('usage: node --import tsx src/thousandfold-data.ts DIR [TIMES]');
  process.exit(2);
}

const seeds = new URL('../../seeds/', import.meta.url);
const seedCount = (name: string) =>
  (JSON.parse(readFileSync(new URL(name, seeds), 'utf8')) as unknown[]).length;
const games = seedCount('games.json') * times;
const destinations = seedCount('destinations.json') * times;
const cds = seedCount('cds.json') * times;

renameSync(writeSyntheticGames(dir, games), join(dir, 'games.json'));
renameSync(writeSyntheticDestinations(dir, destinations), join(dir, 'destinations.json'));
renameSync(writeSyntheticCds(dir, cds), join(dir, 'cds.json'));
renameSync(
  writeGamesTimesOver(new URL('games.json', seeds).pathname, dir, times),
  join(dir, 'games-seed-times.json'),
);

// A handful of each, spread over the data: the load picks among them.
const spread = (count: number, take: number) =>
  Array.from({ length: take }, (_, i) => Math.floor((i * count) / take));
const manifest = {
  times,
  games: {
    count: games,
    // A word in every title, rare words (GAMES_PER_RARE_WORD games each), a studio's name.
    words: [
      WORD_IN_EVERY_TITLE,
      ...spread(games / GAMES_PER_RARE_WORD, 8).map((i) => rareWord(i, games)),
      ...spread(games, 4).map((i) => gameDeveloper(i).split(' ')[0]?.toLowerCase()),
    ],
    gamesPerRareWord: GAMES_PER_RARE_WORD,
  },
  destinations: { count: destinations, names: spread(destinations, 32).map(destinationName) },
  cds: {
    count: cds,
    artists: spread(cds, 8).map((i) => cdArtist(i, cds)),
    cdsPerArtist: CDS_PER_ARTIST,
    genres: [QUARTER_GENRE, 'Jazz', 'Folk'],
  },
};
writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(JSON.stringify({ games, destinations, cds, gamesSeedTimes: games }));
