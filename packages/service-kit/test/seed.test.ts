import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { recordLabel, SeedError, seedFile } from '../src/seed.js';
import { LISTED_PROBLEMS } from '../src/validation.js';

describe('seed files', () => {
  interface Thing {
    name: string;
    size: number;
  }
  const things = seedFile<Thing>({
    what: 'things',
    recordSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'size'],
      properties: { name: { type: 'string' }, size: { type: 'integer', maximum: 10 } },
    },
    check: (records) => (records.length > 2 ? ['too many things'] : []),
  });
  const dir = mkdtempSync(join(tmpdir(), 'kit-seed-'));
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };

  it('loads a valid file', () => {
    expect(things.load(write('ok.json', '[{"name":"a","size":1}]'))).to.deep.equal([
      { name: 'a', size: 1 },
    ]);
  });

  it('names the file when it is not JSON or cannot be read', () => {
    const broken = write('broken.json', '[{"name":');
    expect(() => things.load(broken)).to.throw(
      SeedError,
      new RegExp(`^${broken}: cannot read the things: `),
    );
    expect(() => things.load(join(dir, 'missing.json'))).to.throw(/missing\.json/);
  });

  it('names a nested record by what it is called, and its field', () => {
    const boxes = seedFile({
      what: 'boxes',
      recordSchema: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          parts: {
            type: 'array',
            items: { type: 'object', properties: { size: { type: 'integer' } } },
          },
        },
      },
      nested: { parts: 'part' },
    });
    expect(() =>
      boxes.parse([{ name: 'crate', parts: [{ name: 'lid', size: 'big' }] }], 'boxes.json'),
    ).to.throw(
      'boxes.json: invalid boxes:\n  record 0 ("crate"), part 0 ("lid"): field "size" must be integer',
    );
  });

  it('names the record and the field of every problem', () => {
    const file = write('bad.json', '[{"name":"a","size":11},{"name":"b","extra":1,"size":1}]');
    expect(() => things.load(file)).to.throw(
      `${file}: invalid things:\n  record 0 ("a"): field "size" must be <= 10\n  record 1 ("b"): field "extra" is not allowed`,
    );
    const many = write('many.json', JSON.stringify([1, 2, 3].map((size) => ({ name: 'x', size }))));
    expect(() => things.load(many)).to.throw(/too many things/);
  });

  it('lists the first problems of a file broken throughout, and how many more there are', () => {
    const records = Array.from({ length: 1000 }, (_, index) => ({ name: `n${index}`, size: 11 }));
    let message = '';
    try {
      things.parse(records, 'big');
    } catch (error) {
      message = (error as Error).message;
    }
    const lines = message.split('\n');
    expect(lines).to.have.length(1 + LISTED_PROBLEMS + 1);
    expect(lines[1]).to.equal('  record 0 ("n0"): field "size" must be <= 10');
    expect(lines.at(-1)).to.equal(`  and ${(1000 - LISTED_PROBLEMS).toLocaleString('en-US')} more`);
  });

  it('labels a record by the first 40 characters of its name, and only by a name that is text', () => {
    const huge = `${'é'.repeat(39)}😀${'x'.repeat(1_000_000)}`;
    expect(recordLabel('record', 4, { name: huge })).to.equal(
      `record 4 (${JSON.stringify(`${'é'.repeat(39)}😀…`)})`,
    );
    expect(recordLabel('record', 4, { title: 'Short' })).to.equal('record 4 ("Short")');
    expect(recordLabel('record', 4, { title: Array.from({ length: 1000 }, () => 1) })).to.equal(
      'record 4',
    );
  });

  it('takes a non-empty array of records and says when the file is not one', () => {
    expect(() => things.parse({ things: [] }, 'object')).to.throw(
      'object: invalid things:\n  the file must be array',
    );
    expect(() => things.parse([], 'empty')).to.throw(/the file must NOT have fewer than 1 items/);
  });
});
