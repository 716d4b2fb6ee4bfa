import querystring from 'node:querystring';
import { expect } from 'chai';
import { BadRequest, type ErrorDetail } from '../src/errors.js';
import type { Parameter } from '../src/operations.js';
import { bodyValidator, parameterValidator } from '../src/validation.js';

const query = (name: string, schema: Record<string, unknown>): Parameter => ({
  name,
  in: 'query',
  description: name,
  schema,
});

const limit = query('limit', { type: 'integer', minimum: 1, maximum: 1000 });
const rating = query('rating', { type: 'number', minimum: 0, maximum: 10 });
const sort = query('sort', { type: 'string', enum: ['title', '-title'] });
const q = query('q', { type: 'string', maxLength: 5, pattern: '^\\P{Cc}*$' });
const id: Parameter = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'id',
  schema: { type: 'integer', minimum: 1 },
};

/** The 400 a call throws: its message and details. */
function refusal(call: () => unknown): { message: string; details: ErrorDetail[] } {
  try {
    call();
  } catch (error) {
    expect(error).to.be.instanceOf(BadRequest);
    const { message, details } = error as BadRequest;
    return { message, details: details ?? [] };
  }
  throw new Error('expected a 400');
}

describe('parameterValidator', () => {
  const read = parameterValidator([q, sort, limit, rating]);

  it('gives the typed values of the parameters given, text trimmed', () => {
    expect(read({ q: ' ab ', sort: '-title', limit: '20', rating: '8.5' })).to.deep.equal({
      q: 'ab',
      sort: '-title',
      limit: 20,
      rating: 8.5,
    });
    expect(read({})).to.deep.equal({});
    expect(read({ limit: '0010' })).to.deep.equal({ limit: 10 });
  });

  it('reads a number from any JSON number spelling, never as ajv would coerce it', () => {
    const spellings: [string, number][] = [
      ['1e-7', 1e-7],
      ['2.5E0', 2.5],
      ['1E+1', 10],
      ['0.0000001', 1e-7],
      ['8.50', 8.5],
      ['-0', -0],
    ];
    for (const [raw, value] of spellings) {
      const read = parameterValidator([query('rating', { type: 'number', maximum: 10 })]);
      expect(read({ rating: raw }), raw).to.deep.equal({ rating: value });
    }
    for (const [raw, value] of [
      ['1e3', 1000],
      ['10.0', 10],
      ['0010', 10],
    ] as const) {
      expect(read({ limit: raw }), raw).to.deep.equal({ limit: value });
    }
    for (const raw of [' 12', '12 ', '1.5', '0x10', '+5', '', 'abc', '1e', '1e400']) {
      expect(refusal(() => read({ limit: raw })).details, JSON.stringify(raw)).to.deep.equal([
        { field: 'limit', message: 'must be an integer from 1 to 1000' },
      ]);
    }
    for (const raw of ['.5', '5.', '1e2', ' 5', 'NaN', 'Infinity', '1e400', '1_0']) {
      expect(refusal(() => read({ rating: raw })).details[0]?.field, raw).to.equal('rating');
    }
  });

  it('refuses an integer beyond its maximum, however large, naming the maximum', () => {
    const big = parameterValidator([
      query('n', { type: 'integer', maximum: Number.MAX_SAFE_INTEGER }),
    ]);
    expect(big({ n: '9007199254740991' })).to.deep.equal({ n: Number.MAX_SAFE_INTEGER });
    for (const raw of ['9007199254740992', '9007199254740993', '1e16', '9'.repeat(400)]) {
      expect(refusal(() => big({ n: raw })).details, raw).to.deep.equal([
        { field: 'n', message: 'must be an integer of at most 9007199254740991' },
      ]);
    }
    // Without a maximum, no integer that a number cannot hold exactly is read as another one.
    const unbounded = parameterValidator([query('n', { type: 'integer' })]);
    expect(refusal(() => unbounded({ n: '9007199254740993' })).details[0]?.field).to.equal('n');
  });

  it('says what is wrong in the words of the schema, for each parameter, in the order asked', () => {
    const { message, details } = refusal(() =>
      read({ rating: '11', limit: 'x', sort: 'price', q: 'abcdef' }),
    );
    expect(details).to.deep.equal([
      { field: 'rating', message: 'must be a number from 0 to 10' },
      { field: 'limit', message: 'must be an integer from 1 to 1000' },
      { field: 'sort', message: 'must be one of title, -title' },
      { field: 'q', message: 'must be at most 5 characters' },
    ]);
    expect(message).to.equal(
      'Invalid query: rating must be a number from 0 to 10; limit must be an integer from 1 to 1000; ' +
        'sort must be one of title, -title; q must be at most 5 characters',
    );
    expect(refusal(() => read({ q: 'a\u0000' })).details).to.deep.equal([
      { field: 'q', message: 'is not valid' },
    ]);
  });

  it('takes the messages given, for any rule or for one keyword', () => {
    const worded = parameterValidator([q, rating], {
      messages: { q: { pattern: 'must not contain control characters' }, rating: 'from 0 to 10' },
    });
    expect(refusal(() => worded({ q: 'a\u0000', rating: 'x' })).details).to.deep.equal([
      { field: 'q', message: 'must not contain control characters' },
      { field: 'rating', message: 'from 0 to 10' },
    ]);
    expect(refusal(() => worded({ q: 'abcdef' })).details[0]?.message).to.equal(
      'must be at most 5 characters',
    );
  });

  it('refuses a repeated parameter and unknown ones, listing those it knows', () => {
    expect(refusal(() => read({ limit: ['1', '2'], colour: 'red' })).details).to.deep.equal([
      { field: 'limit', message: 'must be given once' },
      {
        field: 'colour',
        message: 'is not a parameter here; the parameters are q, sort, limit, rating',
      },
    ]);
    expect(refusal(() => parameterValidator([limit])({ x: '1' })).details[0]?.message).to.equal(
      'is not a parameter here; the parameters are limit',
    );
  });

  it('names the first few problems and counts the rest: the answer stays small', () => {
    const text = Array.from({ length: 2000 }, (_, i) => `p${i}=1`).join('&');
    const { message, details } = refusal(() => read(Object.fromEntries(new URLSearchParams(text))));
    expect(details.map((d) => d.field)).to.deep.equal(['p0', 'p1', 'p2', 'p3', 'p4']);
    expect(message).to.match(/^Invalid query: p0 is not a parameter here; .*; and 1,995 more$/);
    const body = JSON.stringify({ error: message, status: 400, details });
    expect(body.length).to.be.below(text.length / 4);
  });

  it('lists every problem when there are few, with no count', () => {
    expect(refusal(() => read({ a: '1', limit: '0' })).message).to.equal(
      'Invalid query: a is not a parameter here; the parameters are q, sort, limit, rating; limit must be an integer from 1 to 1000',
    );
  });

  it("treats names like an object's own (__proto__, constructor) as unknown", () => {
    const raw = querystring.parse('__proto__=x&constructor=y&toString=z');
    expect(refusal(() => read(raw)).details.map((d) => d.field)).to.deep.equal([
      '__proto__',
      'constructor',
      'toString',
    ]);
    expect(({} as Record<string, unknown>).x).to.equal(undefined);
    expect(parameterValidator([limit], { unknown: 'ignore' })(raw)).to.deep.equal({});
  });

  it('ignores unknown parameters when asked (a page), still checking those it knows', () => {
    const page = parameterValidator([limit], { unknown: 'ignore' });
    expect(page({ utm_source: 'mail', limit: '3' })).to.deep.equal({ limit: 3 });
    expect(refusal(() => page({ utm_source: ['a', 'b'], limit: '0' })).details).to.deep.equal([
      { field: 'limit', message: 'must be an integer from 1 to 1000' },
    ]);
  });

  it('takes an empty value as absent only for the parameters named', () => {
    const form = parameterValidator([q, sort, limit], { emptyIsAbsent: ['q', 'sort'] });
    expect(form({ q: '', sort: '', limit: '2' })).to.deep.equal({ limit: 2 });
    expect(form({ q: '   ' })).to.deep.equal({});
    expect(refusal(() => form({ limit: '' })).details[0]?.field).to.equal('limit');
    expect(refusal(() => read({ sort: '' })).details[0]?.field).to.equal('sort');
  });

  it('adds the problems of rules across parameters, judged on the values that passed', () => {
    const year = (name: string) => query(name, { type: 'integer', minimum: 1950, maximum: 2100 });
    const years = parameterValidator([year('from'), year('to'), limit], {
      rules: ({ from, to }) =>
        (from as number) > (to as number)
          ? [{ field: 'from', message: 'must not be after to' }]
          : [],
    });
    expect(years({ from: '2000', to: '2010' })).to.deep.equal({ from: 2000, to: 2010 });
    expect(refusal(() => years({ from: '2010', to: '2000' }))).to.deep.equal({
      message: 'Invalid query: from must not be after to',
      details: [{ field: 'from', message: 'must not be after to' }],
    });
    // After the problems of each parameter, whatever the order of the request.
    expect(refusal(() => years({ to: '2000', from: '2010', limit: '0' })).details).to.deep.equal([
      { field: 'limit', message: 'must be an integer from 1 to 1000' },
      { field: 'from', message: 'must not be after to' },
    ]);
    // A value that broke its own schema is not judged again by the rules.
    expect(refusal(() => years({ from: '3000', to: '2000' })).details).to.deep.equal([
      { field: 'from', message: 'must be an integer from 1950 to 2100' },
    ]);
  });

  it('reads a path integer only in its one spelling, and says so in its own sentence', () => {
    const readId = parameterValidator<{ id: number }>([id], {
      summary: () => 'The id must be a positive integer',
      messages: { id: 'must be a positive integer' },
    });
    expect(readId({ id: '42' })).to.deep.equal({ id: 42 });
    for (const raw of ['01', '-0', '0', '1.0', '1e3', ' 1', '9007199254740993', 'abc']) {
      expect(
        refusal(() => readId({ id: raw })),
        raw,
      ).to.deep.equal({
        message: 'The id must be a positive integer',
        details: [{ field: 'id', message: 'must be a positive integer' }],
      });
    }
    expect(refusal(() => readId({})).details).to.deep.equal([
      { field: 'id', message: 'is required' },
    ]);
  });

  it('keeps path text as it is (no trimming)', () => {
    const name: Parameter = { ...id, name: 'name', schema: { type: 'string', pattern: '^\\S+$' } };
    expect(refusal(() => parameterValidator([name])({ name: ' a' })).details[0]?.field).to.equal(
      'name',
    );
  });
});

describe('bodyValidator', () => {
  const schema = {
    type: 'object',
    properties: {
      title: { type: 'string', minLength: 1, maxLength: 10, pattern: '^\\P{Cc}*$' },
      year: { type: 'integer', minimum: 1800, maximum: 2031 },
    },
    required: ['title', 'year'],
    additionalProperties: false,
  };
  const check = bodyValidator<{ title: string; year: number }>(schema, { label: 'record' });

  it('gives the body back with its strings trimmed', () => {
    expect(check({ title: '  Blue\t', year: 1971 })).to.deep.equal({ title: 'Blue', year: 1971 });
  });

  it('names each field that is wrong, missing or unknown', () => {
    const { message, details } = refusal(() => check({ title: '  ', year: '1971', colour: 'red' }));
    expect(details).to.have.deep.members([
      { field: 'title', message: 'must not be empty' },
      { field: 'year', message: 'must be an integer from 1800 to 2031' },
      { field: 'colour', message: 'is not a field here; the fields are title, year' },
    ]);
    expect(message).to.match(/^Invalid record: /);
    expect(refusal(() => check({ title: 'x'.repeat(11) })).details).to.have.deep.members([
      { field: 'title', message: 'must be at most 10 characters' },
      { field: 'year', message: 'is required' },
    ]);
    expect(refusal(() => check({ title: 42, year: 2000 })).details).to.deep.equal([
      { field: 'title', message: 'must be a string' },
    ]);
  });

  it('takes the messages and the unknown-field wording given', () => {
    const worded = bodyValidator(schema, {
      messages: { title: { pattern: 'no control characters' } },
      unknownMessage: (name) => (name === 'id' ? 'is set by the service' : undefined),
    });
    const { details } = refusal(() => worded({ title: 'a\u0000b', year: 2000, id: 1, x: 1 }));
    expect(details).to.have.deep.members([
      { field: 'title', message: 'no control characters' },
      { field: 'id', message: 'is set by the service' },
      { field: 'x', message: 'is not a field here; the fields are title, year' },
    ]);
  });

  it('refuses a body that is not a JSON object, and an empty update', () => {
    for (const body of [null, [], 'text', 42, true, undefined]) {
      expect(
        refusal(() => check(body)),
        JSON.stringify(body),
      ).to.deep.equal({
        message: 'Invalid record: body must be a JSON object',
        details: [{ field: 'body', message: 'must be a JSON object' }],
      });
    }
    const update = bodyValidator({ ...schema, required: [], minProperties: 1 });
    expect(refusal(() => update({})).details).to.deep.equal([
      { field: 'body', message: 'must have at least one of title, year' },
    ]);
  });

  it('throws the error a domain asks for instead of a 400, with the same message and details', () => {
    class InvalidRecord extends Error {
      constructor(
        message: string,
        readonly details: ErrorDetail[],
      ) {
        super(message);
      }
    }
    const domain = bodyValidator(schema, {
      label: 'record',
      error: (message, details) => new InvalidRecord(message, details),
    });
    const thrown = (() => {
      try {
        domain({ title: '', year: 2000 });
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).to.be.instanceOf(InvalidRecord).and.not.instanceOf(BadRequest);
    expect({ ...(thrown as InvalidRecord), message: (thrown as Error).message }).to.deep.equal(
      refusal(() => check({ title: '', year: 2000 })),
    );
  });

  it('keeps __proto__ a plain key, refused, touching no prototype', () => {
    const body = JSON.parse('{"title":"t","year":2000,"__proto__":{"polluted":true}}');
    expect(refusal(() => check(body)).details.map((d) => d.field)).to.deep.equal(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });
});
