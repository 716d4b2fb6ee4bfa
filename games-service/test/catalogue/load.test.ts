import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { SeedError } from 'service-kit';
import type { Game } from '../../src/catalogue/game.js';
import { loadGames, parseGames } from '../../src/catalogue/load.js';
import { readConfig } from '../../src/config.js';
import { makeGame } from '../fixtures.js';

/** Expects `loading` to reject with a SeedError whose message matches `message`. */
async function expectRefusal(loading: Promise<unknown>, message: RegExp): Promise<void> {
  const error = await loading.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).to.be.instanceOf(SeedError);
  expect((error as Error).message).to.match(message);
}

describe('loadGames', () => {
  it('names the bad record and field', () => {
    const games = [makeGame({ id: 1 }), { ...makeGame({ id: 2, title: 'Broken' }), rating: 11 }];
    expect(() => parseGames(games)).to.throw(SeedError, /record 1 \("Broken"\): field "rating"/);
  });

  it('reports a missing field, an unknown field and a wrong type', () => {
    const { genre: _, ...noGenre } = makeGame({ id: 1 });
    const extra = { ...makeGame({ id: 2 }), price: 3 };
    const wrongType = { ...makeGame({ id: 3 }), releaseYear: '1999' };
    expect(() => parseGames([noGenre])).to.throw(/record 0 .*field "genre" must have required/);
    expect(() => parseGames([extra])).to.throw(/record 0 .*field "price" is not allowed/);
    expect(() => parseGames([wrongType])).to.throw(
      /record 0 .*field "releaseYear" must be integer/,
    );
  });

  it('rejects a rating with more than one decimal and accepts null', () => {
    expect(() => parseGames([makeGame({ rating: 7.25 })])).to.throw(/field "rating"/);
    expect(parseGames([makeGame({ rating: null })])).to.have.length(1);
    expect(parseGames([makeGame({ rating: 8.7 })])).to.have.length(1);
  });

  it('takes only ids that are safe integers (above 2^53 a JSON number reads as another)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'games-'));
    const file = join(dir, 'big-id.json');
    const text = JSON.stringify([makeGame({ id: 1 })]).replace('"id":1', '"id":9007199254740993');
    writeFileSync(file, text);
    await expectRefusal(loadGames(file), /record 0 .*field "id" must be <= 9007199254740991/);
    expect(parseGames([makeGame({ id: Number.MAX_SAFE_INTEGER })])).to.have.length(1);
  });

  it('rejects repeated ids and titles', () => {
    expect(() => parseGames([makeGame({ id: 7 }), makeGame({ id: 7 })])).to.throw(/"id" repeats/);
    const twice = [makeGame({ title: 'Same' }), makeGame({ title: 'Same' })];
    expect(() => parseGames(twice)).to.throw(/"title" repeats record 0/);
  });

  it('rejects a file that is not JSON, or not an array', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'games-'));
    writeFileSync(join(dir, 'bad.json'), '[{"id": 1,');
    await expectRefusal(loadGames(join(dir, 'bad.json')), /bad\.json: cannot read/);
    expect(() => parseGames({ games: [] })).to.throw(/the file must hold a JSON array of games/);
    await expectRefusal(loadGames(join(dir, 'missing.json')), /ENOENT/);
  });

  describe('the seed file', () => {
    let games: Game[] = [];
    before(async () => {
      ({ records: games } = await loadGames(readConfig({}).gamesFile));
    });

    it('holds at least 80 games in at least 8 genres of at least 4 games', () => {
      expect(games.length).to.be.at.least(80);
      const perGenre = new Map<string, number>();
      for (const g of games) perGenre.set(g.genre, (perGenre.get(g.genre) ?? 0) + 1);
      expect(perGenre.size).to.be.at.least(8);
      for (const [genre, count] of perGenre) expect(count, genre).to.be.at.least(4);
    });

    it('holds at least 5 unreleased games and 8 hidden gems', () => {
      expect(games.filter((g) => g.rating === null).length).to.be.at.least(5);
      const gems = games.filter(
        (g) => g.rating !== null && g.rating >= 8.5 && g.reviewCount < 5000,
      );
      expect(gems.length).to.be.at.least(8);
    });

    it('spreads review counts over several orders of magnitude', () => {
      const magnitudes = new Set(
        games.filter((g) => g.reviewCount > 0).map((g) => Math.floor(Math.log10(g.reviewCount))),
      );
      expect(magnitudes.size).to.be.at.least(4);
    });
  });
});
