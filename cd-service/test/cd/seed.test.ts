import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { SeedError } from 'service-kit';
import { loadSeed } from '../../src/cd/seed.js';
import { readConfig } from '../../src/config.js';
import { tempDir } from '../helpers.js';

describe('loadSeed', () => {
  let folder: ReturnType<typeof tempDir>;
  let file: string;
  beforeEach(() => {
    folder = tempDir();
    file = join(folder.dir, 'cds.json');
  });
  afterEach(() => folder.remove());

  /** The SeedError loadSeed throws for `text` in the file. */
  const failure = (text: string): SeedError => {
    writeFileSync(file, text);
    try {
      loadSeed(file);
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
      file,
      JSON.stringify([{ title: ' Blue ', artist: 'Joni', genre: 'Folk', releaseYear: 1971 }]),
    );
    expect(loadSeed(file)).to.deep.equal([
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
    expect(message).to.include(file);
    expect(message).to.include('CD 1 ("Nul\\u0000"): field "title" must not contain control');
    expect(message).to.include('CD 1 ("Nul\\u0000"): field "releaseYear" must be an integer');
    expect(message).to.include('CD 2: field "title" is required');
  });

  it('names the file when it is not an array, not JSON, truncated or missing', () => {
    expect(failure('{"not": "an array"}').message).to.equal(
      `${file}: invalid CDs:\n  the file must hold a JSON array of CDs`,
    );
    for (const text of ['', '[{"title":', 'not json', '\u0000']) {
      const { message } = failure(text);
      expect(message, JSON.stringify(text)).to.match(
        new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot read the CDs: `),
      );
    }
    const missing = join(folder.dir, 'missing.json');
    expect(() => loadSeed(missing)).to.throw(SeedError, `${missing}: cannot read the CDs: ENOENT`);
  });
});
