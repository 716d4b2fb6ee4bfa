import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { renderTable, TABLE_FILE, UNICODE_FOLDING } from '../../scripts/case-folding.js';
import { foldCase } from '../../src/catalogue/case-fold.js';
import { FOLDS_AFTER_LOWERING } from '../../src/catalogue/case-folding.generated.js';

describe('foldCase', () => {
  it('folds ß and ẞ to ss, and final ς to σ, as toLowerCase does not', () => {
    expect(foldCase('Straße STRAẞE')).to.equal('strasse strasse');
    expect(foldCase('ΟΔΥΣΣΕΥΣ οδυσσευς')).to.equal('οδυσσευσ οδυσσευσ');
  });

  it('unfolds ligatures and folds letters outside the Basic Multilingual Plane', () => {
    expect(foldCase('ﬁnal ﬀ')).to.equal('final ff');
    expect(foldCase('\u{10400}')).to.equal('\u{10428}'); // Deseret long I
  });

  it('folds to what CaseFolding.txt says, even where toLowerCase goes the other way', () => {
    expect(foldCase('µ')).to.equal('μ'); // micro sign to Greek mu
    expect(foldCase('\uAB70')).to.equal('\u13A0'); // Cherokee folds to its capitals
    expect('\u13A0'.toLowerCase()).to.equal('\uAB70');
  });

  it('folds dotted and dotless I as everywhere but in Turkish (statuses C and F, not T)', () => {
    expect(foldCase('I')).to.equal('i');
    expect(foldCase('İ')).to.equal('i\u0307');
    expect(foldCase('ı')).to.equal('ı');
  });

  it('folds every code point as the Unicode data package says, and a sigma wherever it stands', () => {
    const wrong: string[] = [];
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      const character = String.fromCodePoint(codePoint);
      if (foldCase(character) !== (UNICODE_FOLDING.get(character) ?? character))
        wrong.push(codePoint.toString(16));
    }
    expect(wrong).to.deep.equal([]);
    expect(foldCase('Σ ΑΣ ΑΣΑ ας ασ')).to.equal('σ ασ ασα ασ ασ');
  });

  it('returns other text as it is', () => {
    expect(foldCase('already folded, 42 ! 😀')).to.equal('already folded, 42 ! 😀');
    expect(foldCase('')).to.equal('');
  });
});

describe('the generated case folding table', () => {
  it('is what `npm run generate` writes from the Unicode data package', () => {
    expect(readFileSync(TABLE_FILE, 'utf8')).to.equal(renderTable());
  });

  it('holds only mappings of the data package, each of a character toLowerCase leaves alone', () => {
    for (const [from, to] of FOLDS_AFTER_LOWERING) {
      expect(UNICODE_FOLDING.get(from), from).to.equal(to);
      expect(from.toLowerCase(), from).to.equal(from);
    }
  });
});
