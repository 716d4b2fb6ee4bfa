import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
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

  /** The SeedError that loading `file` rejects with. */
  const failure = async (file: string) => {
    try {
      await things.load(file);
    } catch (error) {
      expect(error).to.be.instanceOf(SeedError);
      return (error as SeedError).message;
    }
    throw new Error(`${file} was loaded`);
  };

  it('loads a valid file, with the first 16 characters of its SHA-1 as its version', async () => {
    const text = '[{"name":"a","size":1}]';
    expect(await things.load(write('ok.json', text))).to.deep.equal({
      records: [{ name: 'a', size: 1 }],
      version: createHash('sha1').update(text).digest('base64url').slice(0, 16),
    });
    const other = await things.load(write('other.json', '[{"name":"b","size":1}]'));
    expect(other.version)
      .to.have.length(16)
      .and.not.equal(createHash('sha1').update(text).digest('base64url').slice(0, 16));
  });

  it('reads a file larger than its chunks, record by record', async () => {
    const names = Array.from({ length: 2 }, (_, index) => `${index}${'n'.repeat(100_000)}`);
    const file = write('long.json', JSON.stringify(names.map((name) => ({ name, size: 1 }))));
    const { records } = await things.load(file);
    expect(records.map(({ name }) => name)).to.deep.equal(names);
  });

  it('keeps each valid record as `keep` makes it, as it arrives, and only valid ones', async () => {
    const kept: string[] = [];
    const shouted = seedFile<Thing>({
      what: 'things',
      recordSchema: {
        type: 'object',
        required: ['name', 'size'],
        properties: { name: { type: 'string' }, size: { type: 'integer', maximum: 10 } },
      },
      keep: (thing) => {
        kept.push(thing.name);
        return { ...thing, name: thing.name.toUpperCase() };
      },
    });
    const file = write('kept.json', '[{"name":"a","size":1},{"name":"b","size":2}]');
    expect((await shouted.load(file)).records).to.deep.equal([
      { name: 'A', size: 1 },
      { name: 'B', size: 2 },
    ]);
    expect(() => shouted.parse([{ name: 'c', size: 11 }], 'bad')).to.throw(/must be <= 10/);
    expect(kept).to.deep.equal(['a', 'b']);
  });

  it('names the file when it is not JSON, not an array or cannot be read', async () => {
    const broken = write('broken.json', '[{"name":');
    expect(await failure(broken)).to.match(new RegExp(`^${broken}: cannot read the things: `));
    expect(await failure(join(dir, 'missing.json'))).to.match(/missing\.json.*ENOENT/);
    const object = write('object.json', '{"name":"a","size":1}');
    expect(await failure(object)).to.equal(
      `${object}: invalid things: the file must hold a JSON array of things`,
    );
    expect(await failure(write('empty.json', ' []'))).to.match(/the file holds no things$/);
  });

  it('refuses a file that would not fit the memory of the process, before reading it', async () => {
    // Sparse: as large as the process may use, without a byte written.
    const file = write('fits-not.json', '');
    truncateSync(file, getHeapStatistics().heap_size_limit);
    expect(await failure(file)).to.match(
      new RegExp(
        `^${file}: [0-9,]+ MB of things would take about [0-9,]+ MB once loaded, more than the [0-9,]+ MB this process may use`,
      ),
    );
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
      'boxes.json: invalid boxes: record 0 ("crate"), part 0 ("lid"): field "size" must be integer',
    );
  });

  it('names the record and the field of every problem', async () => {
    const file = write('bad.json', '[{"name":"a","size":11},{"name":"b","extra":1,"size":1}]');
    expect(await failure(file)).to.equal(
      `${file}: invalid things: record 0 ("a"): field "size" must be <= 10; record 1 ("b"): field "extra" is not allowed`,
    );
    const many = write('many.json', JSON.stringify([1, 2, 3].map((size) => ({ name: 'x', size }))));
    expect(await failure(many)).to.match(/too many things/);
  });

  it('lists the first problems of a file broken throughout, and how many more there are', () => {
    const records = Array.from({ length: 1000 }, (_, index) => ({ name: `n${index}`, size: 11 }));
    let message = '';
    try {
      things.parse(records, 'big');
    } catch (error) {
      message = (error as Error).message;
    }
    const problems = message.replace('big: invalid things: ', '').split('; ');
    expect(message).to.not.include('\n');
    expect(problems).to.have.length(LISTED_PROBLEMS + 1);
    expect(problems[0]).to.equal('record 0 ("n0"): field "size" must be <= 10');
    expect(problems.at(-1)).to.equal(
      `and ${(1000 - LISTED_PROBLEMS).toLocaleString('en-US')} more`,
    );
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
      'object: invalid things: the file must hold a JSON array of things',
    );
    expect(() => things.parse([], 'empty')).to.throw(
      'empty: invalid things: the file holds no things',
    );
  });

  describe('checked by the service, streamed', () => {
    // Each entry checked by a function (a name, trimmed), never held: scan counts, records yields.
    const names = seedFile<string>({
      what: 'names',
      record: 'name',
      checkEntry: (entry) =>
        typeof entry === 'string' && entry.trim() !== ''
          ? { ok: true, value: entry.trim() }
          : { ok: false, details: [{ field: 'text', message: 'must be a non-empty string' }] },
    });

    it('counts the entries of a good file, an empty one too, and yields their values', () => {
      const file = write('names.json', '[" a ", "b"]');
      const scanned = names.scan(file);
      expect(scanned.count).to.equal(2);
      expect([...scanned.records()]).to.deep.equal(['a', 'b']);
      expect(names.scan(write('none.json', ' [ ] ')).count).to.equal(0);
    });

    it('reads no other file than the one scanned: another entry, or the same entries in other bytes, throw', () => {
      const file = write('names.json', '["a", "b"]');
      for (const later of ['["a", 1]', '[]', '["a"]', '["a",  "b"]', '["b", "a"]']) {
        const scanned = names.scan(write('names.json', '["a", "b"]'));
        writeFileSync(file, later);
        expect(() => [...scanned.records()], later).to.throw(
          SeedError,
          `${file}: changed while it was read`,
        );
      }
    });

    it('refuses a pipe or a device, which it could not read twice, naming it', () => {
      const fifo = join(dir, 'seed.fifo');
      execFileSync('mkfifo', [fifo]);
      for (const file of [fifo, '/dev/null']) {
        expect(() => names.scan(file)).to.throw(
          SeedError,
          `${file}: cannot read the names: it is read twice (checked, then loaded): give a file, not a pipe or a device`,
        );
      }
    });

    it('quotes a field as the file has it, cut to 40 characters, so that a huge name keeps the message short', async () => {
      const long = `${'k'.repeat(1_000_000)}\n`;
      const file = write('long-field.json', '[""]');
      const fields = seedFile<string>({
        what: 'names',
        record: 'name',
        checkEntry: () => ({ ok: false, details: [{ field: long, message: 'is not allowed' }] }),
      });
      expect(() => fields.scan(file)).to.throw(
        SeedError,
        `${file}: invalid names: name 0: field "${'k'.repeat(40)}…" is not allowed`,
      );
      const unknown = write('unknown.json', JSON.stringify([{ name: 'a', size: 1, [long]: 1 }]));
      const message = await failure(unknown);
      expect(message).to.include(`field "${'k'.repeat(40)}…" is not allowed`);
      expect(message.length).to.be.below(300);
    });

    it('names every bad entry on one line, the first twenty and how many more', () => {
      const file = write('bad-names.json', JSON.stringify(Array.from({ length: 25 }, () => 1)));
      const problems = Array.from(
        { length: LISTED_PROBLEMS },
        (_, index) => `name ${index}: field "text" must be a non-empty string`,
      );
      expect(() => names.scan(file)).to.throw(
        SeedError,
        `${file}: invalid names: ${problems.join('; ')}; and 5 more`,
      );
    });
  });
});
