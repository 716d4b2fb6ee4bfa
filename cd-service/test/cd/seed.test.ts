import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadSeed } from '../../src/cd/seed.js';
import { readConfig } from '../../src/config.js';
import { tempDir } from '../helpers.js';

describe('loadSeed', () => {
  it('loads the sample collection, every entry valid', () => {
    const cds = loadSeed(readConfig({}).seedFile);
    expect(cds.length).to.be.at.least(40);
    for (const cd of cds) expect(cd).to.have.all.keys('title', 'artist', 'genre', 'releaseYear');
  });

  it('refuses a file with a bad entry, naming it', () => {
    const folder = tempDir();
    try {
      const file = join(folder.dir, 'bad.json');
      writeFileSync(
        file,
        JSON.stringify([
          { title: 'ok', artist: 'a', genre: 'g', releaseYear: 2000 },
          { title: '' },
        ]),
      );
      expect(() => loadSeed(file)).to.throw(/CD #1 is not valid: .*title/);
      writeFileSync(file, '{"not": "an array"}');
      expect(() => loadSeed(file)).to.throw(/JSON array/);
    } finally {
      folder.remove();
    }
  });
});
