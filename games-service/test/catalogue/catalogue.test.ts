import { expect } from 'chai';
import { Catalogue, compareByRank, isHiddenGem } from '../../src/catalogue/catalogue.js';
import { loadGames } from '../../src/catalogue/load.js';
import { readConfig } from '../../src/config.js';
import { makeGame } from '../fixtures.js';

const seeded = new Catalogue((await loadGames(readConfig({}).gamesFile)).records);

describe('Catalogue', () => {
  const games = [
    makeGame({ id: 1, title: 'Alpha', genre: 'RPG', rating: 9.1, reviewCount: 500 }),
    makeGame({ id: 2, title: 'Bravo', genre: 'rpg', rating: 9.1, reviewCount: 900 }),
    makeGame({ id: 3, title: 'Charlie', genre: 'RPG', rating: null, reviewCount: 0 }),
    makeGame({ id: 4, title: 'Delta', genre: 'Racing', rating: 6.5 }),
    makeGame({ id: 5, title: 'Echo', genre: 'RPG', rating: 7.2 }),
    makeGame({ id: 6, title: 'Foxtrot', genre: 'Racing', rating: 9.1, reviewCount: 900 }),
  ];
  const catalogue = new Catalogue(games);

  it('lists the genres as a reader expects them: by letter, ignoring case and accents', () => {
    const names = ['Strategy', 'RPG', 'Racing', 'action', 'Émulation', 'Fighting'];
    const listed = new Catalogue(names.map((genre, id) => makeGame({ id, genre })));
    expect(listed.genres).to.deep.equal([
      'action',
      'Émulation',
      'Fighting',
      'Racing',
      'RPG',
      'Strategy',
    ]);
  });

  describe('byGenre', () => {
    it('returns only and all games of the genre, matched case-insensitively', () => {
      for (const genre of ['RPG', 'rpg', ' Rpg ']) {
        expect(catalogue.byGenre(genre).map((g) => g.id)).to.have.members([1, 2, 3, 5]);
      }
    });

    it('returns at most the requested count', () => {
      expect(catalogue.byGenre('RPG', 2)).to.have.length(2);
      expect(catalogue.byGenre('RPG', 0)).to.have.length(0);
      expect(catalogue.byGenre('RPG', 99)).to.have.length(4);
    });

    it('returns nothing for an unknown genre', () => {
      expect(catalogue.byGenre('Opera')).to.deep.equal([]);
    });

    it('matches every seeded genre exactly', () => {
      for (const genre of seeded.genres) {
        const expected = seeded.games.filter((g) => g.genre.toLowerCase() === genre.toLowerCase());
        expect(seeded.byGenre(genre.toUpperCase())).to.have.deep.members(expected);
        expect(seeded.byGenre(genre, 3)).to.have.length(Math.min(3, expected.length));
      }
    });
  });

  describe('topRated', () => {
    it('orders by rating, then review count, then title, without unrated games', () => {
      expect(catalogue.topRated(10).map((g) => g.title)).to.deep.equal([
        'Bravo',
        'Foxtrot',
        'Alpha',
        'Echo',
        'Delta',
      ]);
    });

    it('returns the requested count', () => {
      expect(catalogue.topRated(2).map((g) => g.id)).to.deep.equal([2, 6]);
      expect(seeded.topRated(10)).to.have.length(10);
    });

    it('ranks the seeded catalogue in non-increasing rating order', () => {
      const top = seeded.topRated(seeded.size);
      expect(top.every((g) => g.rating !== null)).to.equal(true);
      for (let i = 1; i < top.length; i++) {
        expect(compareByRank(top[i - 1]!, top[i]!)).to.be.below(0);
      }
    });
  });

  describe('byId', () => {
    it('finds a game by id', () => {
      expect(catalogue.byId(4)?.title).to.equal('Delta');
    });

    it('answers undefined for an unknown id', () => {
      expect(catalogue.byId(999)).to.equal(undefined);
      expect(catalogue.byId(0)).to.equal(undefined);
      expect(catalogue.byId(Number.NaN)).to.equal(undefined);
    });
  });

  describe('hiddenGems', () => {
    it('keeps exactly the games at or above the rating with fewer reviews than the limit', () => {
      const edge = [
        makeGame({
          id: 10,
          rating: 8.5,
          reviewCount: 4999,
        }),
        makeGame({ id: 11, rating: 8.4, reviewCount: 10 }),
        makeGame({ id: 12, rating: 9.9, reviewCount: 5000 }),
        makeGame({ id: 13, rating: null, reviewCount: 0 }),
      ];
      expect(new Catalogue(edge).hiddenGems().map((g) => g.id)).to.deep.equal([10]);
    });

    it('finds every gem of the seeded catalogue and nothing else', () => {
      const gems = seeded.hiddenGems();
      expect(gems.length).to.be.at.least(8);
      for (const gem of gems) {
        expect(gem.rating).to.be.at.least(8.5);
        expect(gem.reviewCount).to.be.below(5000);
      }
      expect(gems).to.have.deep.members(seeded.games.filter(isHiddenGem));
    });
  });

  describe('recommendations', () => {
    it('gives up to three other games of the genre, best-rated first', () => {
      const picks = catalogue.recommendations(catalogue.byId(5)!);
      expect(picks.map((g) => g.id)).to.deep.equal([2, 1, 3]);
    });

    it('never recommends the game itself and stops at what the genre has', () => {
      expect(catalogue.recommendations(catalogue.byId(4)!).map((g) => g.id)).to.deep.equal([6]);
    });

    it('gives three for every seeded game', () => {
      for (const game of seeded.games) {
        const picks = seeded.recommendations(game);
        expect(picks, game.title).to.have.length(3);
        expect(picks.every((p) => p.id !== game.id && p.genre === game.genre)).to.equal(true);
      }
    });
  });

  describe('sample', () => {
    it('picks distinct games, all of them when asked for more than there are', () => {
      let seed = 1;
      const random = () => {
        seed = (seed * 16807) % 2147483647;
        return (seed - 1) / 2147483646;
      };
      for (let i = 0; i < 200; i++) {
        const picks = seeded.sample(9, random);
        expect(new Set(picks.map((g) => g.id)).size).to.equal(9);
      }
      expect(catalogue.sample(50, random)).to.have.length(games.length);
    });

    it('can pick every game', () => {
      const seen = new Set<number>();
      for (let i = 0; i < 500; i++) for (const g of catalogue.sample(2)) seen.add(g.id);
      expect(seen.size).to.equal(games.length);
    });
  });
});
