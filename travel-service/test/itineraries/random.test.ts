import { expect } from 'chai';
import { newSeed, randomInt, seededRandom } from '../../src/itineraries/random.js';

const take = (random: () => number, n: number) => Array.from({ length: n }, random);

describe('seededRandom', () => {
  it('gives the same sequence for the same seed, string or number', () => {
    expect(take(seededRandom('lisbon'), 50)).to.deep.equal(take(seededRandom('lisbon'), 50));
    expect(take(seededRandom(42), 50)).to.deep.equal(take(seededRandom('42'), 50));
  });

  it('gives different sequences for different seeds, even close ones', () => {
    const seeds = ['a', 'b', 'ab', 'ba', '', '1', '2'];
    const firsts = new Set(seeds.map((seed) => take(seededRandom(seed), 4).join()));
    expect(firsts.size).to.equal(seeds.length);
  });

  it('stays within [0, 1) and spreads evenly', () => {
    const values = take(seededRandom('spread'), 100_000);
    expect(Math.min(...values)).to.be.at.least(0);
    expect(Math.max(...values)).to.be.below(1);
    const buckets = new Array(10).fill(0);
    for (const value of values) buckets[Math.floor(value * 10)]++;
    for (const count of buckets) expect(count).to.be.within(9_000, 11_000);
  });
});

describe('randomInt', () => {
  it('gives every integer of the range, both ends included, and nothing else', () => {
    const random = seededRandom('ints');
    const seen = new Map<number, number>();
    for (let i = 0; i < 7_000; i++) {
      const value = randomInt(random, 3, 9);
      seen.set(value, (seen.get(value) ?? 0) + 1);
    }
    expect([...seen.keys()].sort()).to.deep.equal([3, 4, 5, 6, 7, 8, 9]);
    for (const count of seen.values()) expect(count).to.be.within(800, 1_200);
  });

  it('handles a range of one value and the extremes of the source', () => {
    expect(randomInt(() => 0.999999, 5, 5)).to.equal(5);
    expect(randomInt(() => 0, 1, 100)).to.equal(1);
    expect(randomInt(() => 1 - Number.EPSILON, 1, 100)).to.equal(100);
  });
});

describe('newSeed', () => {
  it('gives a different printable seed each time', () => {
    const seeds = new Set(Array.from({ length: 20 }, newSeed));
    expect(seeds.size).to.equal(20);
    for (const seed of seeds) expect(seed).to.match(/^[0-9a-f]{16}$/);
  });
});
