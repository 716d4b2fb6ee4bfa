import { expect } from 'chai';
import fc from 'fast-check';
import { InvalidCd } from '../../src/cd/errors.js';
import { TEXT_RULE } from '../../src/cd/schema.js';
import {
  checkCreate,
  validCreate,
  validUpdate,
  checked as withoutThrowing,
} from '../../src/cd/validate.js';
import { makeCdInput } from '../helpers.js';
import { INVISIBLE_TEXT, REFUSED_TEXT, UNUSUAL_TEXT } from '../text-cases.js';

const NOW = new Date('2030-06-15T12:00:00Z');
const checkUpdate = (body: unknown, now: Date) => withoutThrowing(() => validUpdate(body, now));
const fieldsOf = (checked: ReturnType<typeof checkCreate> | ReturnType<typeof checkUpdate>) =>
  checked.ok ? [] : checked.details.map((d) => d.field);

describe('checkCreate', () => {
  it('accepts the four fields and trims the strings', () => {
    const checked = checkCreate(
      { title: '  Blue ', artist: '\tJoni Mitchell\n', genre: ' Folk', releaseYear: 1971 },
      NOW,
    );
    expect(checked).to.deep.equal({
      ok: true,
      value: { title: 'Blue', artist: 'Joni Mitchell', genre: 'Folk', releaseYear: 1971 },
    });
  });

  it('requires every field', () => {
    for (const field of ['title', 'artist', 'genre', 'releaseYear']) {
      const body: Record<string, unknown> = { ...makeCdInput() };
      delete body[field];
      const checked = checkCreate(body, NOW);
      expect(checked.ok).to.equal(false);
      expect(checked.ok ? undefined : checked.details).to.deep.equal([
        { field, message: 'is required' },
      ]);
    }
  });

  it('refuses empty, whitespace-only, too long and non-string text', () => {
    for (const bad of ['', '   ', '\n\t', 'x'.repeat(201), 42, null, ['a'], { a: 1 }, true]) {
      expect(
        fieldsOf(checkCreate(makeCdInput({ title: bad as string }), NOW)),
        String(bad),
      ).to.deep.equal(['title']);
    }
  });

  it('counts characters, not UTF-16 units, and counts after trimming', () => {
    expect(checkCreate(makeCdInput({ artist: '𝄞'.repeat(200) }), NOW).ok).to.equal(true);
    expect(checkCreate(makeCdInput({ artist: ` ${'a'.repeat(200)} ` }), NOW).ok).to.equal(true);
    expect(checkCreate(makeCdInput({ artist: '𝄞'.repeat(201) }), NOW).ok).to.equal(false);
  });

  it('accepts any genre', () => {
    for (const genre of ['Polka', 'Nu Metal', 'drum & bass', 'Ελληνικά', '%_*']) {
      expect(checkCreate(makeCdInput({ genre }), NOW).ok, genre).to.equal(true);
    }
  });

  it('takes release years from 1800 to next year, computed from the clock', () => {
    for (const year of [1800, 1999, 2030, 2031]) {
      expect(checkCreate(makeCdInput({ releaseYear: year }), NOW).ok, String(year)).to.equal(true);
    }
    for (const year of [1799, 2032, 2000.5, '2000', -1, null, Number.MAX_SAFE_INTEGER + 2]) {
      const checked = checkCreate(makeCdInput({ releaseYear: year as number }), NOW);
      expect(fieldsOf(checked), String(year)).to.deep.equal(['releaseYear']);
    }
    const later = new Date('2040-01-01T00:00:00Z');
    expect(checkCreate(makeCdInput({ releaseYear: 2041 }), later).ok).to.equal(true);
    const message = (
      checkCreate(makeCdInput({ releaseYear: 3000 }), NOW) as { details: { message: string }[] }
    ).details[0]?.message;
    expect(message).to.equal('must be an integer from 1800 to 2031');
  });

  it('refuses unknown fields and the fields the service sets, naming each', () => {
    const checked = checkCreate(
      { ...makeCdInput(), colour: 'red', id: 'x', createdAt: 'y', updatedAt: 'z' },
      NOW,
    );
    expect(checked.ok).to.equal(false);
    const details = checked.ok ? [] : checked.details;
    expect(details.map((d) => d.field)).to.have.members(['colour', 'id', 'createdAt', 'updatedAt']);
    expect(details.find((d) => d.field === 'id')?.message).to.match(/set by the service/);
    expect(details.find((d) => d.field === 'colour')?.message).to.equal(
      'is not a field here; the fields are title, artist, genre, releaseYear',
    );
  });

  it('refuses __proto__ and constructor as plain keys, touching no prototype', () => {
    const body = JSON.parse(`{"title":"t","artist":"a","genre":"g","releaseYear":2000,
      "__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}`);
    const checked = checkCreate(body, NOW);
    expect(fieldsOf(checked)).to.have.members(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });

  it('refuses a body that is not an object', () => {
    for (const body of [null, [], [makeCdInput()], 'text', 42, true, undefined]) {
      expect(checkCreate(body, NOW)).to.deep.equal({
        ok: false,
        details: [{ field: 'body', message: 'must be a JSON object' }],
      });
    }
  });

  it('reports every problem at once', () => {
    expect(fieldsOf(checkCreate({ title: '', releaseYear: 'x', extra: 1 }, NOW))).to.have.members([
      'title',
      'artist',
      'genre',
      'releaseYear',
      'extra',
    ]);
  });

  it('refuses control characters inside text, naming the field and the rule', () => {
    const controls = ['\u0000', '\u0001', '\t', '\n', '\r', '\u001b', '\u001f', '\u007f'];
    for (const c of [...controls, '\u0080', '\u0085', '\u009b', '\u009f']) {
      for (const field of ['title', 'artist', 'genre'] as const) {
        const checked = checkCreate(makeCdInput({ [field]: `a${c}b` }), NOW);
        expect(checked, `${field} U+${c.codePointAt(0)?.toString(16)}`).to.deep.equal({
          ok: false,
          details: [{ field, message: TEXT_RULE }],
        });
      }
    }
    // A leading or trailing tab or line break is whitespace, trimmed like spaces.
    expect(checkCreate(makeCdInput({ title: '\tBlue\r\n' }), NOW).ok).to.equal(true);
    // Trimming removes spaces, not other controls: a NUL at either end is refused.
    expect(fieldsOf(checkCreate(makeCdInput({ title: '\u0000Blue' }), NOW))).to.deep.equal([
      'title',
    ]);
    expect(fieldsOf(checkUpdate({ genre: 'Jazz\u0000' }, NOW))).to.deep.equal(['genre']);
  });

  it('refuses a text with no visible character like an empty one', () => {
    for (const invisible of INVISIBLE_TEXT) {
      for (const field of ['title', 'artist', 'genre'] as const) {
        expect(
          checkCreate(makeCdInput({ [field]: invisible }), NOW),
          `${field} ${JSON.stringify(invisible)}`,
        ).to.deep.equal({ ok: false, details: [{ field, message: TEXT_RULE }] });
      }
      expect(fieldsOf(checkUpdate({ genre: invisible }, NOW))).to.deep.equal(['genre']);
    }
    // One character that shows is enough, whatever surrounds it.
    for (const text of [
      '\u200Bx\u200B',
      '\u00AD-',
      'a\u200D',
      '\u0301',
      '\u2800',
      '\u{1F600}\u200B',
    ]) {
      expect(checkCreate(makeCdInput({ title: text }), NOW).ok, JSON.stringify(text)).to.equal(
        true,
      );
    }
  });

  it('refuses unpaired surrogates (text that is not well-formed Unicode)', () => {
    for (const bad of [
      'x\ud800y',
      '\ud800',
      'x\udfff',
      '\udc00\ud800',
      '𝄞'.slice(0, 1),
      'a𝄞'.slice(0, 2),
    ]) {
      expect(checkCreate(makeCdInput({ artist: bad }), NOW), JSON.stringify(bad)).to.deep.equal({
        ok: false,
        details: [{ field: 'artist', message: TEXT_RULE }],
      });
    }
    for (const bad of REFUSED_TEXT) {
      expect(fieldsOf(checkUpdate({ title: bad }, NOW)), JSON.stringify(bad)).to.deep.equal([
        'title',
      ]);
    }
    expect(checkCreate(makeCdInput({ artist: 'x\ud834\udd1ey' }), NOW).ok).to.equal(true);
  });

  it('accepts every other character, exactly as given', () => {
    for (const text of UNUSUAL_TEXT) {
      const input = makeCdInput({ title: text, artist: text, genre: text });
      expect(checkCreate(input, NOW), JSON.stringify(text)).to.deep.equal({
        ok: true,
        value: input,
      });
    }
  });

  it('accepts exactly the well-formed text without control characters that shows a character (property)', () => {
    const isControl = (c: string) => /\p{Cc}/u.test(c);
    const isInvisible = (c: string) => /[\p{White_Space}\p{Default_Ignorable_Code_Point}]/u.test(c);
    fc.assert(
      fc.property(
        fc.string({
          maxLength: 12,
          unit: fc.oneof(
            fc.constantFrom(
              ...'ab \t\n\u0000\u0085\u00a0\u2028\ud800\udc00\ud834\udd1e\u200d\u200b\u3164\u00ad',
            ),
            fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
          ),
        }),
        (text) => {
          const trimmed = text.trim();
          const expected =
            trimmed.length > 0 &&
            Buffer.from(trimmed).toString() === trimmed &&
            ![...trimmed].some(isControl) &&
            ![...trimmed].every(isInvisible);
          expect(checkCreate(makeCdInput({ genre: text }), NOW).ok, JSON.stringify(text)).to.equal(
            expected,
          );
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('accepts any valid input and gives it back trimmed (property)', () => {
    const text = fc
      .string({ minLength: 1, maxLength: 50, unit: 'grapheme' })
      .filter((s) => s.trim().length > 0);
    const pad = fc.constantFrom('', ' ', '\t', '  \n');
    fc.assert(
      fc.property(
        text,
        text,
        text,
        fc.integer({ min: 1800, max: 2031 }),
        pad,
        (title, artist, genre, year, p) => {
          const checked = checkCreate(
            { title: p + title + p, artist, genre, releaseYear: year },
            NOW,
          );
          expect(checked).to.deep.equal({
            ok: true,
            value: {
              title: title.trim(),
              artist: artist.trim(),
              genre: genre.trim(),
              releaseYear: year,
            },
          });
        },
      ),
    );
  });
});

describe('checkUpdate', () => {
  it('accepts any non-empty subset of the fields', () => {
    expect(checkUpdate({ title: ' New ' }, NOW)).to.deep.equal({
      ok: true,
      value: { title: 'New' },
    });
    expect(checkUpdate({ releaseYear: 1999, genre: 'Jazz' }, NOW).ok).to.equal(true);
    expect(checkUpdate(makeCdInput(), NOW).ok).to.equal(true);
  });

  it('refuses an empty update', () => {
    const checked = checkUpdate({}, NOW);
    expect(checked.ok).to.equal(false);
    expect(checked.ok ? [] : checked.details.map((d) => d.field)).to.deep.equal(['body']);
  });

  it('refuses invalid values, unknown fields and service fields', () => {
    expect(fieldsOf(checkUpdate({ title: '  ' }, NOW))).to.deep.equal(['title']);
    expect(fieldsOf(checkUpdate({ releaseYear: 1700 }, NOW))).to.deep.equal(['releaseYear']);
    expect(fieldsOf(checkUpdate({ title: 'ok', bogus: 1 }, NOW))).to.deep.equal(['bogus']);
    expect(fieldsOf(checkUpdate({ id: 'x' }, NOW))).to.deep.equal(['id']);
    expect(fieldsOf(checkUpdate({ updatedAt: 'x' }, NOW))).to.deep.equal(['updatedAt']);
    expect(fieldsOf(checkUpdate([], NOW))).to.deep.equal(['body']);
  });
});

describe('validCreate and validUpdate', () => {
  it('give the trimmed value, or throw an InvalidCd whose message names each problem', () => {
    expect(validCreate(makeCdInput({ title: ' Blue ' }), NOW).title).to.equal('Blue');
    expect(validUpdate({ genre: ' Jazz ' }, NOW)).to.deep.equal({ genre: 'Jazz' });
    expect(() => validCreate({ ...makeCdInput(), id: 'x' }, NOW)).to.throw(
      InvalidCd,
      'Invalid CD: id is set by the service and cannot be given',
    );
    expect(() => validUpdate({}, NOW)).to.throw(
      'Invalid update: body must have at least one of title, artist, genre, releaseYear',
    );
  });

  it('leave out the fields the service sets when they are as stored, and refuse any other value', () => {
    const stored = {
      id: '0b7c7f0e-8d4e-4f7a-9a53-6f0e2a1c5b3d',
      ...makeCdInput(),
      createdAt: '2030-01-01T00:00:00.000Z',
      updatedAt: '2030-02-01T00:00:00.000Z',
    };
    expect(validUpdate({ ...stored, title: ' New ' }, NOW, stored)).to.deep.equal({
      ...makeCdInput(),
      title: 'New',
    });
    const sameWrittenOtherwise = {
      id: stored.id.toUpperCase(),
      createdAt: '2030-01-01T00:00:00Z',
      updatedAt: '2030-02-01T01:00:00+01:00',
    };
    expect(validUpdate({ ...sameWrittenOtherwise, title: 'New' }, NOW, stored)).to.deep.equal({
      title: 'New',
    });
    expect(() =>
      validUpdate({ id: '1b7c7f0e-8d4e-4f7a-9a53-6f0e2a1c5b3d', title: 'x' }, NOW, stored),
    ).to.throw(
      'Invalid update: id is set by the service and cannot be changed: send it as read, or leave it out',
    );
    expect(() =>
      validUpdate({ createdAt: '2030-01-01T00:00:01.000Z', title: 'x' }, NOW, stored),
    ).to.throw(/createdAt is set by the service and cannot be changed/);
    expect(() => validUpdate({ updatedAt: stored.updatedAt }, NOW, stored)).to.throw(
      'Invalid update: body must have at least one of title, artist, genre, releaseYear',
    );
    expect(() => validUpdate({ ...stored, title: 'x' }, NOW)).to.throw(/id is set by the service/);
  });
});
