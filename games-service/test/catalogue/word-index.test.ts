import { expect } from 'chai';
import { normalize, tokenize, WordIndex } from '../../src/catalogue/word-index.js';

describe('normalize', () => {
  it('folds case and strips accents', () => {
    expect(normalize('Pokémon')).to.equal('pokemon');
    expect(normalize('ŌKAMI Légende Ñandú')).to.equal('okami legende nandu');
    expect(normalize('İstanbul')).to.equal('istanbul');
  });

  it('folds case fully, as Unicode does beyond toLowerCase', () => {
    expect(normalize('Straße STRAẞE')).to.equal('strasse strasse');
    expect(normalize('ΟΔΥΣΣΕΥΣ Ὀδυσσεύς')).to.equal('οδυσσευσ οδυσσευσ');
  });

  it('gives, for every code point, a form that normalises to itself', () => {
    // So a query typed as the index holds a word finds it.
    const unstable: string[] = [];
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      const once = normalize(String.fromCodePoint(codePoint));
      if (normalize(once) !== once) unstable.push(codePoint.toString(16));
    }
    expect(unstable).to.deep.equal([]);
  });

  it('decomposes compatibility characters', () => {
    expect(normalize('ﬁnal ²')).to.equal('final 2');
  });
});

describe('tokenize', () => {
  it('splits on anything but a letter or a digit, each word once', () => {
    expect(tokenize('Half-Life 2: half…LIFE!')).to.deep.equal(['half', 'life', '2']);
    expect(tokenize(' -!😀 ')).to.deep.equal([]);
  });
});

describe('WordIndex', () => {
  const index = new WordIndex([
    { title: 'Red Dead Red', developer: 'Rockstar Studio' },
    { title: 'Redemption', developer: 'Rock Studio' },
    { title: 'Bored', developer: 'Studio Rocket' },
    { title: 'Studio Story', developer: 'Studio' },
  ]);
  const matches = (q?: string) => {
    const found = index.matches(q);
    return found && [...found.positions()].sort((a, b) => a - b);
  };

  it('counts, for a prefix, the games of each word it starts', () => {
    expect(index.reach('studio')).to.equal(4);
    expect(index.reach('red')).to.equal(2);
    expect(index.reach('rock')).to.equal(3);
    expect(index.reach('r')).to.equal(5);
    expect(index.reach('st')).to.equal(5);
    expect(index.reach('dead')).to.equal(1);
    expect(index.reach('dea')).to.equal(1);
    expect(index.reach('deads')).to.equal(0);
    expect(index.reach('q')).to.equal(0);
  });

  it('finds the games where each query word starts a word, rare or common', () => {
    expect(matches('studio')).to.deep.equal([0, 1, 2, 3]);
    expect(matches('studio red')).to.deep.equal([0, 1]);
    expect(matches('red studio')).to.deep.equal([0, 1]);
    expect(matches('st re dead')).to.deep.equal([0]);
    expect(matches('rocket STUDIO')).to.deep.equal([2]);
    expect(matches('studio story st')).to.deep.equal([3]);
    expect(matches('studio bo')).to.deep.equal([2]);
    expect(matches('studio ored')).to.deep.equal([]);
    // The rarer word finds the game; the other starts none of its words, only their middles.
    expect(matches('rocket re')).to.deep.equal([]);
    expect(matches('redemption ock')).to.deep.equal([]);
  });

  it('tells each matched game, and only those, until it is asked again', () => {
    const found = index.matches('studio r') as NonNullable<ReturnType<typeof index.matches>>;
    expect([0, 1, 2, 3].filter((position) => found.has(position))).to.deep.equal([0, 1, 2]);
  });

  it('keeps only the games a filter accepts', () => {
    const found = index.matches('studio', (position) => position % 2 === 1);
    expect(found && [...found.positions()].sort()).to.deep.equal([1, 3]);
    expect(found && [0, 1, 2, 3].filter((position) => found.has(position))).to.deep.equal([1, 3]);
  });

  it('answers the same for a query word checked game by game as by its postings', () => {
    // "studio" reaches every game: after "bored" leaves one candidate, it is checked on that game.
    expect(matches('bored studio')).to.deep.equal([2]);
    expect(matches('bored studio rock')).to.deep.equal([2]);
    expect(matches('bored studio red')).to.deep.equal([]);
  });

  it('counts a game once however many of its words one query word starts', () => {
    const long = 'internationalisation'; // shares more than any table of shared starts holds
    const shared = new WordIndex([
      { title: 'Studio Studios Studious', developer: 'Stud' },
      { title: 'Studs', developer: 'Sun' },
      { title: `${long} ${long}s`, developer: 'Sun Studio' },
      { title: 'Moon', developer: 'Rain' },
    ]);
    const expected: [string, number[]][] = [
      ['stud', [0, 1, 2]],
      ['studio', [0, 2]],
      ['studios', [0]],
      ['s', [0, 1, 2]],
      ['su', [1, 2]],
      ['i', [2]],
      [long.slice(0, 18), [2]],
      [`${long}s`, [2]],
      ['m', [3]],
      ['moons', []],
    ];
    for (const [q, positions] of expected) {
      const found = shared.matches(q) as NonNullable<ReturnType<typeof shared.matches>>;
      expect(found.count, q).to.equal(positions.length);
      const tested = [0, 1, 2, 3].filter((position) => found.has(position));
      expect(tested, q).to.deep.equal(positions);
      expect([...found.positions()].sort(), q).to.deep.equal(positions);
      expect(
        [0, 1, 2, 3].filter((position) => found.has(position)),
        q,
      ).to.deep.equal(positions);
    }
  });

  it('answers undefined for a blank query and nothing for one without a word', () => {
    expect(matches()).to.equal(undefined);
    expect(matches(' \t')).to.equal(undefined);
    expect(matches('-!')).to.deep.equal([]);
  });
});
