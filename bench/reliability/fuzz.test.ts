import { isUtf8 } from 'node:buffer';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { expect } from 'chai';
import fc from 'fast-check';
import { type RawResponse, sendRaw } from '../src/load.js';
import { type RunningProcess, type ServiceName, startService } from '../src/process.js';
import { cdDatabase, freshCdFile, invalidStoredCds } from './cd-store.js';
import { problemsWith } from './checks.js';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 5000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);

const PREFIXES: Record<ServiceName, string[]> = {
  'games-service': [
    '/api/games',
    '/api/games/top-rated',
    '/api/games/genre',
    '/api/games/1',
    '/games',
    '/',
    '/top-rated',
    '/docs',
    '/assets',
  ],
  'travel-service': [
    '/api/itineraries',
    '/api/itineraries/kyoto',
    '/itineraries',
    '/itineraries/new-york',
    '/',
    '/docs',
    '/assets',
  ],
  'cd-service': [
    '/cds',
    '/cds',
    '/cds/00000000-0000-4000-8000-000000000000',
    '/healthz',
    '/livez',
    '/readyz',
    '/openapi.json',
    '/docs',
  ],
};

/** Methods a route may have; any other method is never answered 2xx or 3xx. */
const ROUTABLE = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);
/**
 * Methods Node's parser takes that no route has (WebDAV, UPnP, HTTP extensions). CONNECT is left
 * out: Node hands it to a 'connect' listener, which no service has (see the pending test below).
 */
const OTHER_METHODS = [
  'PROPFIND',
  'PROPPATCH',
  'MKCOL',
  'COPY',
  'MOVE',
  'LOCK',
  'UNLOCK',
  'SEARCH',
  'REPORT',
  'MKACTIVITY',
  'CHECKOUT',
  'MERGE',
  'M-SEARCH',
  'NOTIFY',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'PURGE',
  'MKCALENDAR',
  'LINK',
  'UNLINK',
  'BIND',
  'REBIND',
  'UNBIND',
  'ACL',
  'SOURCE',
  'QUERY',
  'TRACE',
];

/** Text at the edges of Unicode: controls, unpaired surrogates, joiners, marks, noncharacters. */
const EDGE_TEXT = [
  '\u0000',
  'a\u0000b',
  '\t',
  'line\nbreak',
  '\r\n',
  '\u001b[31m',
  '\u007f',
  '\u0085',
  '\u009b',
  '\ud800',
  'x\udfffy',
  '\udc00\ud800',
  '\ud834\udd1e',
  '𝄞'.repeat(200),
  '𝄞'.repeat(201),
  'Ω'.repeat(200),
  '\ufeffBOM',
  'zero\u200bwidth',
  '\u200b',
  '\u2060\u00ad',
  '👩‍👩‍👧‍👦',
  '\u202eevil',
  '\u2066isolate\u2069',
  'e\u0301',
  '\u212b',
  '\u0301',
  '\ufffe\uffff',
  '\u{10ffff}',
  '\ue000',
  '\ufffd',
  'a\u2028b',
  'a\u00a0b',
  '\u00a0',
  ' \u3000 ',
  'نص عربي',
  '日本語',
];
const text = fc.oneof(
  fc.constantFrom(...EDGE_TEXT),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.string({ maxLength: 12 }),
);

/** Bytes that are not UTF-8: a stray continuation, an overlong '/', an encoded surrogate, a cut sequence. */
const INVALID_UTF8 = [
  [0xff],
  [0x80],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xe2, 0x82],
  [0xf4, 0x90, 0x80, 0x80],
].map((b) => Buffer.from(b));

/** A lone surrogate cannot be percent-encoded (encodeURIComponent throws): it goes as the bytes UTF-8 would give it. */
function percentEncoded(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

const segment = fc.oneof(
  fc.constantFrom(
    '..',
    '.',
    '',
    '%',
    '%E0%A4%A',
    '%ff',
    '%00',
    '%2e%2e',
    '%2F',
    '<script>',
    'top-rated',
    'genre',
    'x'.repeat(300),
    '__proto__',
    'constructor',
    '0',
    '-1',
    '1e9',
    'null',
    '%20New%20York',
    '%ED%A0%80',
    '%C0%AF',
    '%C2%85',
    '%EF%BB%BF',
    '%F0%9F%98%80',
    '%E2%80%AE',
  ),
  fc.stringMatching(/^[\w%.~!$&'()*+,;=:@<>"{}|\\^`-]{0,40}$/),
  fc.integer({ min: -5, max: 2 ** 53 + 10 }).map(String),
  text.map(percentEncoded),
);
const query = fc.oneof(
  fc.constant(''),
  fc.constantFrom(
    '?limit=0',
    '?limit=1&limit=2',
    '?before=abc',
    '?fields=bogus',
    '?sort=__proto__',
    `?artist=${'a'.repeat(5000)}`,
    '?%=%',
    '?a[b]=c',
    '?artist=%E0%A4%A',
    '?offset=-1',
    '?limit=1e3',
    '?destination=%3Cb%3E',
    '?artist=%00',
    '?genre=%ED%A0%80',
    '?artist=%C0%AF',
    '?artist=%C2%85',
    '?q=%F0%9F%98%80',
    '?q=%ZZ',
    '?artist=a%2',
    '?%ZZ=1',
  ),
  fc
    .array(
      fc.tuple(
        fc.constantFrom(
          'artist',
          'genre',
          'limit',
          'offset',
          'sort',
          'fields',
          'before',
          'destination',
          'q',
          'x',
          '',
        ),
        fc.oneof(fc.string({ maxLength: 20 }), text),
      ),
      { maxLength: 8 },
    )
    .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${percentEncoded(v)}`).join('&')}`),
);

/** A JSON body, as text: malformed, hostile, or a CD whose text is at the edges of Unicode. */
const json = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.constantFrom(
    '{',
    '{"title":',
    '[]',
    'null',
    '"x"',
    '42',
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"x":1}}}',
    '{"title":"a","artist":"b","genre":"c","releaseYear":1999,"id":"x"}',
    '{"title":"<script>alert(1)</script>","artist":"b","genre":"c","releaseYear":1999}',
    '{"title":"  ","artist":"b","genre":"c","releaseYear":1999}',
    '{"title":"a","artist":"b","genre":"c","releaseYear":1799.5}',
    '{"title":"\\u0000","artist":"b","genre":"c","releaseYear":1999}',
    '{"title":"x\\ud800","artist":"b","genre":"c","releaseYear":1999}',
  ),
  fc
    .record({
      title: fc.string(),
      artist: fc.string(),
      genre: fc.string(),
      releaseYear: fc.oneof(fc.integer(), fc.double(), fc.string()),
    })
    .map((cd) => JSON.stringify(cd)),
  fc
    .record({
      title: text,
      artist: text,
      genre: text,
      releaseYear: fc.integer({ min: 1990, max: 2000 }),
    })
    .map((cd) => JSON.stringify(cd)),
  fc.record({ title: text }).map((cd) => JSON.stringify(cd)),
  fc.constant(JSON.stringify({ title: 'x'.repeat(200_000) })),
);

/** How the body's bytes are made from its text: as they are, or wrapped in a way the service must see through or refuse. */
const ENCODINGS = [
  'none',
  'none',
  'none',
  'none',
  'gzip',
  'deflate',
  'br',
  'gzip-garbage',
  'gzip-truncated',
  'deflate-garbage',
  'br-garbage',
  'identity',
  'x-gzip',
  'compress',
  'zstd',
  'bogus',
  'gzip, gzip',
  'GZIP',
] as const;
type Encoding = (typeof ENCODINGS)[number];
/** How the text becomes bytes: UTF-8, with a BOM, with bytes that are not UTF-8, or as UTF-16 or Latin-1. */
const CHARSETS = [
  'utf-8',
  'utf-8',
  'utf-8',
  'utf-8-bom',
  'utf-8-invalid',
  'utf-16le',
  'latin1',
] as const;
type Charset = (typeof CHARSETS)[number];

/** The Content-Type's charset parameter: right, wrong, odd, absent. */
const CONTENT_TYPES = [
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=UTF-8',
  'application/json;charset="utf-8"',
  'application/json; charset=utf8',
  'application/json; charset=latin1',
  'application/json; charset=iso-8859-1',
  'application/json; charset=windows-1252',
  'application/json; charset=utf-16',
  'application/json; charset=utf-16le',
  'application/json; charset=us-ascii',
  'application/json; charset=bogus',
  'application/json; charset=',
  'application/json; charset=utf-8; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/merge-patch+json',
  'application/json-seq',
  '',
];

/** The text as bytes in the charset, before any Content-Encoding. */
function textBytes(source: string, charset: Charset): Buffer {
  let bytes: Buffer;
  if (charset === 'utf-16le') bytes = Buffer.from(source, 'utf16le');
  else if (charset === 'latin1')
    bytes = Buffer.from(source.replace(/[\u0100-\u{10ffff}]/gu, 'é'), 'latin1');
  else if (charset === 'utf-8-bom')
    bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(source)]);
  else if (charset === 'utf-8-invalid') {
    const at = Math.max(0, source.indexOf('"', source.indexOf(':')) + 1);
    bytes = Buffer.concat([
      Buffer.from(source.slice(0, at)),
      INVALID_UTF8[source.length % INVALID_UTF8.length] as Buffer,
      Buffer.from(source.slice(at)),
    ]);
  } else bytes = Buffer.from(source);
  return bytes;
}

function encoded(bytes: Buffer, encoding: Encoding): Buffer {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
    case 'GZIP':
      return gzipSync(bytes);
    case 'deflate':
      return deflateSync(bytes);
    case 'br':
      return brotliCompressSync(bytes);
    case 'gzip-garbage':
    case 'deflate-garbage':
    case 'br-garbage':
      // At most 32 KB: a larger broken body is tested below, with the request after it.
      return Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0x00]), bytes.subarray(0, 32 * 1024)]);
    case 'gzip-truncated': {
      const zipped = gzipSync(bytes);
      return zipped.subarray(0, Math.max(1, zipped.length - 8));
    }
    case 'gzip, gzip':
      return gzipSync(gzipSync(bytes));
    default:
      return bytes;
  }
}

const encodingHeader = (encoding: Encoding) =>
  ({
    none: undefined,
    'gzip-garbage': 'gzip',
    'gzip-truncated': 'gzip',
    'deflate-garbage': 'deflate',
    'br-garbage': 'br',
  })[encoding as string] ?? (encoding === 'none' ? undefined : encoding);

/** A CD whose text is at the edges of Unicode. */
const cdJson = fc
  .record({
    title: text,
    artist: fc.oneof(text, fc.constant('Fuzz Artist')),
    genre: fc.oneof(text, fc.constant('Rock')),
    releaseYear: fc.integer({ min: 1990, max: 2000 }),
  })
  .map((cd) => JSON.stringify(cd));

/** A write the service could take: a CD as JSON, in any charset and encoding, labelled in any way. */
function arbitraryWrite(service: ServiceName) {
  return fc.record({
    method: fc.constantFrom('POST', 'POST', 'PUT'),
    path: fc.constantFrom(...(service === 'cd-service' ? ['/cds'] : PREFIXES[service])),
    body: fc.record({
      json: cdJson,
      charset: fc.constantFrom(...CHARSETS),
      encoding: fc.constantFrom(...ENCODINGS),
    }),
    contentType: fc.constantFrom(...CONTENT_TYPES),
    repeatedHeader: fc.constant(false),
  });
}

/** A plain write: UTF-8 JSON labelled so, in an encoding the services take; only its text is at the edges. */
function arbitraryPlainWrite(service: ServiceName) {
  return fc.record({
    method: fc.constant('POST'),
    path: fc.constantFrom(...(service === 'cd-service' ? ['/cds'] : PREFIXES[service])),
    body: fc.record({
      json: cdJson,
      charset: fc.constant<Charset>('utf-8'),
      encoding: fc.constantFrom<Encoding>('none', 'none', 'gzip', 'deflate', 'br'),
    }),
    contentType: fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'application/json; charset=UTF-8',
      'application/json;charset="utf-8"',
    ),
    repeatedHeader: fc.constant(false),
  });
}

function arbitraryRequest(service: ServiceName) {
  return fc.oneof(
    { weight: 6, arbitrary: arbitraryAny(service) },
    { weight: 2, arbitrary: arbitraryWrite(service) },
    { weight: 2, arbitrary: arbitraryPlainWrite(service) },
  );
}

function arbitraryAny(service: ServiceName) {
  return fc.record({
    method: fc.oneof(
      {
        weight: 8,
        arbitrary: fc.constantFrom(
          'GET',
          'GET',
          'GET',
          'POST',
          'POST',
          'PUT',
          'DELETE',
          'PATCH',
          'HEAD',
          'OPTIONS',
        ),
      },
      { weight: 2, arbitrary: fc.constantFrom(...OTHER_METHODS) },
    ),
    path: fc
      .tuple(fc.constantFrom(...PREFIXES[service]), fc.array(segment, { maxLength: 3 }), query)
      .map(([prefix, segments, q]) => `${prefix}${segments.map((s) => `/${s}`).join('')}${q}`),
    body: fc.option(
      fc.record({
        json,
        charset: fc.constantFrom(...CHARSETS),
        encoding: fc.constantFrom(...ENCODINGS),
      }),
      { freq: 4 },
    ),
    contentType: fc.constantFrom(...CONTENT_TYPES),
    repeatedHeader: fc.boolean(),
  });
}

type Generated = ReturnType<typeof arbitraryAny> extends fc.Arbitrary<infer T> ? T : never;

/** Charsets a label may name that are not UTF-8: a body so labelled is refused or decoded, never read as UTF-8. */
const FOREIGN_CHARSET =
  /charset=("?)(latin1|iso-8859-1|windows-1252|utf-16|utf-16le|us-ascii|bogus)\1$/i;
/** Encodings whose bytes cannot be read (broken data, or a coding the services do not take). */
const UNREADABLE = new Set<Encoding>([
  'gzip-garbage',
  'gzip-truncated',
  'deflate-garbage',
  'br-garbage',
  'compress',
  'zstd',
  'bogus',
]);

/**
 * The body as sent, and whether a write must be refused (no 2xx): labelled with another
 * charset, in an encoding that cannot be read, or holding bytes that are not UTF-8.
 */
function prepared(r: Generated) {
  if (!r.body) return { bytes: undefined, mustRefuse: false };
  const { json: source, charset, encoding } = r.body;
  const text = textBytes(source, charset);
  return {
    bytes: encoded(text, encoding),
    encoding: encodingHeader(encoding),
    mustRefuse: FOREIGN_CHARSET.test(r.contentType) || UNREADABLE.has(encoding) || !isUtf8(text),
  };
}

function send(url: string, agent: Agent, r: Generated): Promise<RawResponse> {
  const { bytes, encoding } = prepared(r);
  const headers: Record<string, string | string[]> = {};
  if (r.contentType) headers['content-type'] = r.contentType;
  if (r.repeatedHeader) headers['x-request-id'] = ['a', 'b'];
  if (encoding) headers['content-encoding'] = encoding;
  // Node frames a GET or DELETE body only when told its length.
  if (bytes !== undefined) headers['content-length'] = String(bytes.length);
  return sendRaw(url + r.path, { method: r.method, headers, agent, body: bytes });
}

/** What this fuzzing adds to the promises of checks.ts: methods, encodings, charsets. */
function moreProblems(r: Generated, res: RawResponse): string[] {
  const problems: string[] = [];
  if (res.status === 501) problems.push('501 Not Implemented');
  if (!ROUTABLE.has(r.method) && res.status < 400)
    problems.push(`${r.method} answered ${res.status}`);
  if (res.status === 405 && !res.headers.allow) problems.push('405 without a method in Allow');
  const { bytes, mustRefuse } = prepared(r);
  const written =
    (r.method === 'POST' || r.method === 'PUT') &&
    bytes !== undefined &&
    res.status >= 200 &&
    res.status < 300;
  if (written && mustRefuse) {
    problems.push(
      `a body it cannot read honestly (${r.body?.charset}, ${r.body?.encoding}, ${r.contentType}) answered ${res.status}`,
    );
  }
  const expected = expectedCdWrite(r);
  if (expected === 201) judged.valid++;
  if (expected === 400) judged.invalid++;
  if (expected !== undefined && res.status !== expected)
    problems.push(`expected ${expected}: ${res.body.toString().slice(0, 200)}`);
  return problems;
}

/**
 * Text a CD may hold (README): trimmed, 1 to 200 characters, well-formed, no control character,
 * and something that shows once White_Space and Default_Ignorable_Code_Point are set aside.
 */
function validCdText(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const trimmed = value.trim();
  const length = [...trimmed].length;
  return (
    length >= 1 &&
    length <= 200 &&
    Buffer.from(trimmed).toString() === trimmed &&
    !/\p{Cc}/u.test(trimmed) &&
    /[^\p{White_Space}\p{Default_Ignorable_Code_Point}]/u.test(trimmed)
  );
}

/**
 * What cd-service must answer a plain, honest POST /cds (UTF-8 JSON labelled so, in an encoding
 * it takes): 201 for a valid CD, 400 for any other; undefined for requests it does not judge.
 */
function expectedCdWrite(r: Generated): number | undefined {
  if (r.method !== 'POST' || r.path !== '/cds' || !r.body || r.repeatedHeader) return undefined;
  if (
    r.body.charset !== 'utf-8' ||
    !['none', 'identity', 'gzip', 'deflate', 'br'].includes(r.body.encoding)
  )
    return undefined;
  if (!/^application\/json(; ?charset=("?)utf-?8\2)?$/i.test(r.contentType)) return undefined;
  if (Buffer.byteLength(r.body.json) > 100 * 1024) return undefined;
  let cd: unknown;
  try {
    cd = JSON.parse(r.body.json);
  } catch {
    return 400;
  }
  if (!cd || typeof cd !== 'object' || Array.isArray(cd)) return 400;
  const { title, artist, genre, releaseYear, ...rest } = cd as Record<string, unknown>;
  const valid =
    Object.keys(rest).length === 0 &&
    validCdText(title) &&
    validCdText(artist) &&
    validCdText(genre) &&
    Number.isInteger(releaseYear) &&
    (releaseYear as number) >= 1800 &&
    (releaseYear as number) <= new Date().getUTCFullYear() + 1;
  return valid ? 201 : 400;
}

/** How many plain POST /cds this run judged, by the answer they must get. */
const judged = { valid: 0, invalid: 0 };

for (const name of ['games-service', 'travel-service', 'cd-service'] as const) {
  describe(`fuzzing ${name} with ${REQUESTS} generated requests (seed ${SEED})`, function () {
    this.timeout(300_000);
    let service: RunningProcess;
    const dbFile = freshCdFile();
    /** The CDs cd-service acknowledged with a 201, as it answered them. */
    const created: { id: string }[] = [];

    before(async () => {
      service = await startService(name, {
        CD_DB_PATH: dbFile,
        CD_SEED: 'true',
        ITINERARY_SEED: 'fuzz',
      });
    });
    after(() => service?.stop());

    it('never answers 5xx or 501, 405 only with Allow, no 2xx to a body it cannot read, JSON errors on JSON routes, nothing leaks, the process stays up', async () => {
      const requests = fc.sample(arbitraryRequest(name), { numRuns: REQUESTS, seed: SEED });
      const agent = new Agent({ keepAlive: true, maxSockets: 16 });
      const problems: string[] = [];
      let next = 0;
      const worker = async () => {
        while (next < requests.length) {
          const r = requests[next++] as Generated;
          const label = `${r.method} ${r.path.slice(0, 120)} body ${r.body ? `${r.body.json.length} chars ${r.body.charset} ${r.body.encoding}` : 'none'} ${r.contentType}`;
          let res: RawResponse;
          try {
            res = await send(service.url, agent, r);
          } catch (error) {
            problems.push(`${label}: ${(error as Error).message}`);
            continue;
          }
          if (name === 'cd-service' && r.method === 'POST' && res.status === 201)
            created.push(JSON.parse(res.body.toString()));
          for (const problem of [...problemsWith(r.method, r.path, res), ...moreProblems(r, res)]) {
            if (problems.length < 20) problems.push(`${label} -> ${res.status}: ${problem}`);
          }
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
      agent.destroy();
      if (name === 'cd-service')
        console.log(
          `      plain POST /cds judged: ${judged.valid} valid CDs (201), ${judged.invalid} invalid (400)`,
        );
      Object.assign(judged, { valid: 0, invalid: 0 });
      expect(problems).to.deep.equal([]);
      expect(service.exited()).to.equal(false);
      const health = await fetch(`${service.url}/healthz`);
      expect(health.status).to.equal(200);
    });

    if (name === 'cd-service') {
      it('gives back every acknowledged CD exactly as it answered it', async () => {
        expect(created.length, 'some generated CDs were valid').to.be.greaterThan(0);
        const changed: string[] = [];
        for (const cd of created) {
          const res = await fetch(`${service.url}/cds/${cd.id}`);
          const text = await res.text();
          if (text !== JSON.stringify(cd))
            changed.push(`${JSON.stringify(cd)} -> ${res.status} ${text}`);
        }
        expect(changed.slice(0, 5)).to.deep.equal([]);
      });

      it('stored no invalid record (text well-formed UTF-8, no control character)', async () => {
        await service.stop();
        const db = cdDatabase(dbFile);
        try {
          expect(invalidStoredCds(db)).to.deep.equal([]);
          expect(db.pragma('integrity_check', { simple: true })).to.equal('ok');
        } finally {
          db.close();
        }
      });
    }
  });
}

/** The status of a GET on the agent's connection, or a failure after 5 s. */
function fetchOn(agent: Agent, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error('no answer in 5 s')));
    req.on('error', reject);
    req.end();
  });
}

/** Defects of the shared kit found by this fuzzing (issues 11 and 20), each fixed there. */
describe('kit defects found by the fuzzing', () => {
  let service: RunningProcess;
  before(async () => {
    service = await startService('cd-service', { CD_DB_PATH: freshCdFile(), CD_SEED: 'false' });
  });
  after(() => service?.stop());
  const raw = (method: string, path: string, headers: Record<string, string> = {}, body?: Buffer) =>
    sendRaw(service.url + path, {
      method,
      headers: { ...headers, ...(body && { 'content-length': String(body.length) }) },
      body,
    });

  it('a body declared UTF-8 whose bytes are not UTF-8 is a 400, not stored with U+FFFD; a CESU-8 lone surrogate too', async () => {
    for (const bad of [
      [0xff, 0xfe],
      [0xed, 0xa0, 0x80],
    ]) {
      const body = Buffer.concat([
        Buffer.from('{"title":"a'),
        Buffer.from(bad),
        Buffer.from('b","artist":"a","genre":"g","releaseYear":2000}'),
      ]);
      const res = await raw('POST', '/cds', { 'content-type': 'application/json' }, body);
      expect(res.status, bad.join(' ')).to.equal(400);
      expect(JSON.parse(res.body.toString())).to.deep.equal({
        error: 'The body is not valid UTF-8',
        status: 400,
      });
    }
    const stored = await raw('GET', '/cds');
    expect(JSON.parse(stored.body.toString())).to.deep.equal([]);
  });

  it('two Host headers, or a Host that is not host[:port], are a 400 with the JSON error body', async () => {
    const { port } = new URL(service.url);
    for (const hosts of [['a.example', 'b.example'], ['a b'], ['a.example/x']]) {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () =>
          socket.write(
            `GET /cds HTTP/1.1\r\n${hosts.map((host) => `Host: ${host}\r\n`).join('')}Connection: close\r\n\r\n`,
          ),
        );
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk;
        });
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
      expect(answer, hosts.join(' + ')).to.match(/^HTTP\/1\.1 400 /);
      expect(answer).to.match(/content-type: application\/json/i);
    }
  });

  it('a broken gzip, deflate or br body over 64 KB closes the connection (Connection: close) or is read to its end: the next request on it is answered', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const garbage = Buffer.alloc(200_000, 0x41);
      const first = await sendRaw(`${service.url}/cds`, {
        agent,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'content-length': String(garbage.length),
        },
        body: garbage,
      });
      expect(first.status).to.equal(400);
      const next = await fetchOn(agent, `${service.url}/healthz`);
      expect(next).to.equal(200);
    } finally {
      agent.destroy();
    }
  });

  it('a method no route has, on a path that does not exist, is a 404 (not a 405 with an empty Allow)', async () => {
    const res = await raw('PROPFIND', '/nope');
    expect(res.status).to.equal(404);
  });

  it('CONNECT is answered (405 with the JSON error body), not hung up', async () => {
    const { port } = new URL(service.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write('CONNECT /cds HTTP/1.1\r\nHost: x\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
        if (text.includes('\r\n\r\n')) socket.destroy();
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).to.match(/^HTTP\/1\.1 405 /);
    expect(answer).to.match(/content-type: application\/json/i);
  });
});
