import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { refusedStart } from '../src/process.js';

// The built services refuse a bad setting before they listen. Which values are bad is the kit's
// config test; each cd-service refusal (its database, its seed, its token) is cd-service's own test.
describe('start-up refusals of the compiled services', function () {
  this.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'startup-reliability-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const name of ['games-service', 'travel-service', 'cd-service'] as const) {
    it(`${name}: exits 1 naming a PORT that is not a decimal integer from 0 to 65535`, async () => {
      for (const port of ['0x10', '65536']) {
        const { code, error } = await refusedStart(name, {
          PORT: port,
          CD_DB_PATH: join(dir, `${name}.sqlite`),
        });
        expect(code, JSON.stringify(port)).to.equal(1);
        expect(error).to.equal(
          `PORT must be a whole number from 0 to 65535, not ${JSON.stringify(port)}`,
        );
      }
    });
  }
});
