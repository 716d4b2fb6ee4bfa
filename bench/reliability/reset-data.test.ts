import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { startFromSources } from './from-sources.js';
import { spawnMake } from './make.js';

interface Cd {
  id: string;
  title: string;
}

async function titles(url: string): Promise<string[]> {
  const cds = (await (await fetch(`${url}/cds?limit=1000`)).json()) as Cd[];
  return cds.map((cd) => cd.title).sort();
}

async function resetData(file: string) {
  const make = spawnMake('reset-data', { env: { CD_DB_PATH: file } });
  const [code] = await make.exited;
  return { code, output: make.output() };
}

describe('make reset-data puts the sample collection back', function () {
  this.timeout(120_000);

  it('after writes, the next start has the sample again; refused, changing nothing, while cd-service runs', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'reset-data-')), 'cds.sqlite');
    let cd = await startFromSources('cd-service', { CD_DB_PATH: file });
    const sample = await titles(cd.url);
    expect(sample).to.have.length(61);
    try {
      const [first] = (await (await fetch(`${cd.url}/cds?limit=1`)).json()) as Cd[];
      expect((await fetch(`${cd.url}/cds/${first?.id}`, { method: 'DELETE' })).status).to.equal(
        204,
      );
      const created = await fetch(`${cd.url}/cds`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          title: 'Blue',
          artist: 'Joni Mitchell',
          genre: 'Folk',
          releaseYear: 1971,
        }),
      });
      expect(created.status).to.equal(201);

      const refused = await resetData(file);
      expect(refused.code, refused.output).to.not.equal(0);
      expect(refused.output)
        .to.include('Nothing was reset')
        .and.include('in use by another process');
      expect(existsSync(file)).to.equal(true);
      expect(await titles(cd.url)).to.not.deep.equal(sample);
    } finally {
      await cd.stop();
    }

    const reset = await resetData(file);
    expect(reset.code, reset.output).to.equal(0);
    expect(existsSync(file)).to.equal(false);
    cd = await startFromSources('cd-service', { CD_DB_PATH: file });
    try {
      expect(await titles(cd.url)).to.deep.equal(sample);
    } finally {
      await cd.stop();
    }
  });
});
