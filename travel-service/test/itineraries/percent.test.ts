import { expect } from 'chai';
import fc from 'fast-check';
import { wholePercents } from '../../src/itineraries/percent.js';

const sum = (numbers: readonly number[]) => numbers.reduce((a, b) => a + b, 0);
const roundedAlone = (parts: readonly number[]) =>
  parts.map((part) => Math.round((part * 100) / sum(parts)));

describe('wholePercents', () => {
  it('adds up to 100 where rounding each share alone gives 101', () => {
    // $12.50, $12.50 and $75.00: 12.5%, 12.5% and 75%.
    const cents = [1250, 1250, 7500];
    expect(sum(roundedAlone(cents))).to.equal(101);
    expect(wholePercents(cents)).to.deep.equal([13, 12, 75]);
  });

  it('adds up to 100 where rounding each share alone gives 99', () => {
    const cents = [1000, 1000, 1000];
    expect(sum(roundedAlone(cents))).to.equal(99);
    expect(wholePercents(cents)).to.deep.equal([34, 33, 33]);
  });

  it('gives the missing points to the largest remainders', () => {
    // 16.4%, 16.8% and 66.8%: rounded down 16 + 16 + 66 = 98, two points to give.
    expect(wholePercents([164, 168, 668])).to.deep.equal([16, 17, 67]);
  });

  it('keeps exact shares as they are, and gives zeros for nothing', () => {
    expect(wholePercents([25, 25, 50])).to.deep.equal([25, 25, 50]);
    expect(wholePercents([0, 7])).to.deep.equal([0, 100]);
    expect(wholePercents([0, 0])).to.deep.equal([0, 0]);
    expect(wholePercents([])).to.deep.equal([]);
  });

  it('always adds up to 100, each within a point of the exact share, larger parts never lower', () => {
    const partsArb = fc.array(fc.integer({ min: 1, max: 10_000_000 }), {
      minLength: 1,
      maxLength: 7,
    });
    fc.assert(
      fc.property(partsArb, (parts) => {
        const percents = wholePercents(parts);
        expect(sum(percents)).to.equal(100);
        parts.forEach((part, i) => {
          const exact = (part * 100) / sum(parts);
          expect(percents[i]).to.be.oneOf([Math.floor(exact), Math.ceil(exact)]);
          parts.forEach((other, j) => {
            if (part > other) expect(percents[i]).to.be.at.least(percents[j]!);
          });
        });
      }),
      { numRuns: 500, seed: 20_260_101 },
    );
  });
});
