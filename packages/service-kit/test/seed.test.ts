import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { expect } from 'chai';
import { fieldProblem, loadSeedFile, recordLabel, SeedError, type SeedRules } from '../src/seed.js';

describe('seed files', () => {
  interface Thing {
    name: string;
    size: number;
  }
  const rules: SeedRules<Thing[]> = {
    what: 'things',
    validate: new Ajv({ allErrors: true }).compile<Thing[]>({
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'size'],
        properties: { name: { type: 'string' }, size: { type: 'integer', maximum: 10 } },
      },
    }),
    describe: (error, data) => {
      const [, index, field] = error.instancePath.split('/');
      const where = recordLabel('record', index ?? '?', (data as unknown[])[Number(index)]);
      return `${where}: ${fieldProblem(error, field) ?? error.message}`;
    },
    check: (things) => (things.length > 2 ? ['too many things'] : []),
  };
  const dir = mkdtempSync(join(tmpdir(), 'kit-seed-'));
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };

  it('loads a valid file', () => {
    expect(loadSeedFile(write('ok.json', '[{"name":"a","size":1}]'), rules)).to.deep.equal([
      { name: 'a', size: 1 },
    ]);
  });

  it('names the file when it is not JSON or cannot be read', () => {
    const broken = write('broken.json', '[{"name":');
    expect(() => loadSeedFile(broken, rules)).to.throw(
      SeedError,
      new RegExp(`^${broken}: cannot read the things: `),
    );
    expect(() => loadSeedFile(join(dir, 'missing.json'), rules)).to.throw(/missing\.json/);
  });

  it('names the record and the field of every problem', () => {
    const file = write('bad.json', '[{"name":"a","size":11},{"name":"b","extra":1,"size":1}]');
    expect(() => loadSeedFile(file, rules)).to.throw(
      `${file}: invalid things:\n  record 0 ("a"): field "size" must be <= 10\n  record 1 ("b"): field "extra" is not allowed`,
    );
    const many = write('many.json', JSON.stringify([1, 2, 3].map((size) => ({ name: 'x', size }))));
    expect(() => loadSeedFile(many, rules)).to.throw(/too many things/);
  });
});
