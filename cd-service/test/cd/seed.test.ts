import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { SeedError } from 'service-kit';
import { TEXT_RULE } from '../../src/cd/schema.js';
import { checkSeed, loadSeed } from '../../src/cd/seed.js';
import { readConfig } from '../../src/config.js';
import { folderEachTest } from '../fixtures.js';

describe('loadSeed', () => {
  const folder = folderEachTest('cds.json');

  /** The SeedError loadSeed throws for `text` in the file. */
  const failure = (text: string): SeedError => {
    writeFileSync(folder.file, text);
    try {
      loadSeed(folder.file);
    } catch (error) {
      expect(error).to.be.instanceOf(SeedError);
      return error as SeedError;
    }
    throw new Error('loadSeed accepted a bad file');
  };

  it('loads the sample collection, every entry valid', () => {
    const cds = loadSeed(readConfig({}).seedFile);
    expect(cds.length).to.be.at.least(40);
    for (const cd of cds) expect(cd).to.have.all.keys('title', 'artist', 'genre', 'releaseYear');
  });

  it('trims the entries like a POST body', () => {
    writeFileSync(
      folder.file,
      JSON.stringify([{ title: ' Blue ', artist: 'Joni', genre: 'Folk', releaseYear: 1971 }]),
    );
    expect(loadSeed(folder.file)).to.deep.equal([
      { title: 'Blue', artist: 'Joni', genre: 'Folk', releaseYear: 1971 },
    ]);
  });

  it('names the file, each bad entry and its field', () => {
    const { message } = failure(
      JSON.stringify([
        { title: 'ok', artist: 'a', genre: 'g', releaseYear: 2000 },
        { title: 'Nul\u0000', artist: 'a', genre: 'g', releaseYear: 1700 },
        { artist: 'a', genre: 'g', releaseYear: 2000 },
      ]),
    );
    expect(message).to.include(folder.file);
    expect(message).to.include(`CD 1 ("Nul\\u0000"): field "title" ${TEXT_RULE}`);
    expect(message).to.include('CD 1 ("Nul\\u0000"): field "releaseYear" must be an integer');
    expect(message).to.include('CD 2: field "title" is required');
  });

  it('says it all on one line, the first twenty problems and how many more', () => {
    const entries = Array.from({ length: 25 }, (_, i) => ({
      title: `T${i}`,
      artist: 'a',
      genre: 'g',
    }));
    const { message } = failure(JSON.stringify(entries, null, 2));
    expect(message).not.to.match(/\n/);
    expect(message).to.equal(
      `${folder.file}: invalid CDs: ${entries
        .slice(0, 20)
        .map((_, i) => `CD ${i} ("T${i}"): field "releaseYear" is required`)
        .join('; ')}; and 5 more`,
    );
    // JSON's own message may quote the text, line breaks included: they become spaces.
    expect(failure('no\nt json').message).not.to.match(/\n/);
    expect(failure('{"an":\n "object"}').message).to.equal(
      `${folder.file}: invalid CDs: the file must hold a JSON array of CDs`,
    );
  });

  it('names the file when it is not an array, not JSON, truncated or missing', () => {
    expect(failure('{"not": "an array"}').message).to.equal(
      `${folder.file}: invalid CDs: the file must hold a JSON array of CDs`,
    );
    for (const text of ['', '[{"title":', 'not json', '\u0000']) {
      const { message } = failure(text);
      expect(message, JSON.stringify(text)).to.match(
        new RegExp(`^${folder.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot read the CDs: `),
      );
    }
    const missing = join(folder.dir, 'missing.json');
    expect(() => loadSeed(missing)).to.throw(SeedError, `${missing}: cannot read the CDs: ENOENT`);
  });
});

describe('the seed file as a stream', () => {
  const folder = folderEachTest('cds.json');

  const cd = (i: number) => ({ title: `CD ${i}`, artist: 'a', genre: 'g', releaseYear: 2000 });

  it('checks every entry and counts them; yields the CDs trimmed, in order', () => {
    const entries = Array.from({ length: 2500 }, (_, i) => cd(i));
    writeFileSync(folder.file, JSON.stringify(entries, null, 1));
    const seed = checkSeed(folder.file);
    expect(seed.count).to.equal(2500);
    const cds = [...seed.records()];
    expect(cds).to.have.length(2500);
    expect(cds[2499]).to.deep.equal(cd(2499));
  });

  it('reads the file a chunk at a time: the first CDs come before the rest is parsed', () => {
    // 5,000 CDs (over 64 KB), then a broken end: a parse of the whole file would fail first.
    const entries = Array.from({ length: 5000 }, (_, i) => cd(i));
    writeFileSync(folder.file, JSON.stringify(entries));
    const seed = checkSeed(folder.file);
    writeFileSync(folder.file, `${JSON.stringify(entries).slice(0, -1)}, {"title": `);
    const cds = seed.records();
    expect(cds.next().value).to.deep.equal(cd(0));
    expect(() => [...cds]).to.throw(SeedError, /cannot read the CDs: not valid JSON/);
    expect(() => checkSeed(folder.file)).to.throw(SeedError, /cannot read the CDs: not valid JSON/);
  });

  it('refuses a file that is not an array, whatever it holds', () => {
    for (const text of ['5', '"x"', '{}', 'null', '{"a": [1]}']) {
      writeFileSync(folder.file, text);
      expect(() => checkSeed(folder.file), text).to.throw(
        SeedError,
        `${folder.file}: invalid CDs: the file must hold a JSON array of CDs`,
      );
    }
    writeFileSync(folder.file, ' [ ] ');
    expect(checkSeed(folder.file).count).to.equal(0);
  });
});
