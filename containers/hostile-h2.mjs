// Malformed HTTP/2 requests to the edge's HTTPS port, written frame by frame (Node's own client
// refuses to send them): header names and values that HTTP/1.1 would refuse (uppercase, a colon,
// CR, LF, NUL), a content-length that disagrees with the body's DATA, and a stream reset mid-body.
// HAProxy translates HTTP/2 to HTTP/1.1 for the replicas: none of these may reach one as another
// request. Each request, on a connection of its own, carries an X-Request-Id of its own; the ids
// are printed for the caller to look for in the replicas' logs. A well-formed request on each
// connection's next stream shows the connection still serves (unless the edge closed it). Prints
// one JSON line: per case, what the edge answered (a status, RST_STREAM, GOAWAY or a close), and
// exits 1 when a malformed request got a 2xx or the well-formed control request got no 200.
//   CA=edge.pem TOKEN=... node containers/hostile-h2.mjs https://127.0.0.1:3443 /cds /cds/<id>
// READ: the well-formed request's path; WRITE: a path whose PUT of a whole body would succeed
// (a CD's, with cd's TOKEN), for the body cases.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect } from 'node:tls';

const [origin, readPath, writePath] = process.argv.slice(2);
if (!writePath || !process.env.CA) {
  console.error('usage: CA=PEM [TOKEN=...] node hostile-h2.mjs https://HOST:PORT READ WRITE');
  process.exit(2);
}
const target = new URL(origin);
const ca = readFileSync(process.env.CA);
const token = process.env.TOKEN ?? '';

const FRAME = { DATA: 0, HEADERS: 1, RST_STREAM: 3, SETTINGS: 4, GOAWAY: 7 };
const END_STREAM = 0x1;
const END_HEADERS = 0x4;

function frame(type, flags, stream, payload = Buffer.alloc(0)) {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(stream, 5);
  return Buffer.concat([head, payload]);
}

/** An HPACK integer with an N-bit prefix (RFC 7541 §5.1). */
function hpackInteger(value, prefixBits, firstByte = 0) {
  const max = (1 << prefixBits) - 1;
  if (value < max) return [firstByte | value];
  const bytes = [firstByte | max];
  let rest = value - max;
  while (rest >= 128) {
    bytes.push((rest % 128) + 128);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return bytes;
}

/** Each header as a literal without indexing, new name, no Huffman: the bytes go as given. */
function headerBlock(headers) {
  const bytes = [];
  for (const [name, value] of headers) {
    const n = Buffer.from(name, 'latin1');
    const v = Buffer.from(value, 'latin1');
    bytes.push(0x00, ...hpackInteger(n.length, 7), ...n, ...hpackInteger(v.length, 7), ...v);
  }
  return Buffer.from(bytes);
}

// The digits' Huffman codes (RFC 7541 Appendix B): enough to read a :status.
const DIGIT_CODES = new Map([
  ['00000', '0'],
  ['00001', '1'],
  ['00010', '2'],
  ['011001', '3'],
  ['011010', '4'],
  ['011011', '5'],
  ['011100', '6'],
  ['011101', '7'],
  ['011110', '8'],
  ['011111', '9'],
]);
const STATIC_STATUS = { 8: '200', 9: '204', 10: '206', 11: '304', 12: '400', 13: '404', 14: '500' };

/** The :status of a response's header block (the server sends it first, RFC 9113 §8.3). */
function statusOf(block) {
  const first = block[0];
  if (first & 0x80) return STATIC_STATUS[first & 0x7f] ?? `indexed ${first & 0x7f}`;
  const nameIndex = first & (first & 0x40 ? 0x3f : 0x0f);
  if (nameIndex < 8 || nameIndex > 14) return `unread (${first})`;
  const huffman = block[1] & 0x80;
  const length = block[1] & 0x7f;
  const value = block.subarray(2, 2 + length);
  if (!huffman) return value.toString('latin1');
  const bits = [...value].map((byte) => byte.toString(2).padStart(8, '0')).join('');
  let digits = '';
  let code = '';
  for (const bit of bits) {
    code += bit;
    if (DIGIT_CODES.has(code)) {
      digits += DIGIT_CODES.get(code);
      code = '';
      if (digits.length === 3) break;
    }
  }
  return digits;
}

/**
 * One connection: the preface and SETTINGS, then `frames(stream)` for stream 1 and, when the
 * connection still serves, a well-formed GET on stream 3. Resolves with what came back.
 */
function exchange(frames, resetByClient) {
  return new Promise((resolve) => {
    const outcome = { case: undefined, control: undefined };
    let received = Buffer.alloc(0);
    const socket = connect({
      host: target.hostname,
      port: Number(target.port),
      ca,
      servername: target.hostname === '127.0.0.1' ? 'localhost' : target.hostname,
      ALPNProtocols: ['h2'],
    });
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(finish, 5000);
    socket.on('secureConnect', () => {
      if (socket.alpnProtocol !== 'h2') {
        outcome.case = `ALPN gave ${socket.alpnProtocol}`;
        return finish();
      }
      socket.write(Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'));
      socket.write(frame(FRAME.SETTINGS, 0, 0));
      for (const f of frames(1)) socket.write(f);
      // Nothing comes back on a stream the client reset: the next request goes once the reset is sent.
      if (resetByClient) setTimeout(() => record(1, 'reset by the client'), 200);
    });
    const record = (stream, what) => {
      if (stream === 1 && outcome.case === undefined) {
        outcome.case = what;
        const control = headerBlock([
          [':method', 'GET'],
          [':scheme', 'https'],
          [':path', readPath],
          [':authority', target.host],
        ]);
        socket.write(frame(FRAME.HEADERS, END_HEADERS | END_STREAM, 3, control));
      } else if (stream === 3 && outcome.control === undefined) {
        outcome.control = what;
        finish();
      }
    };
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      while (received.length >= 9) {
        const length = received.readUIntBE(0, 3);
        if (received.length < 9 + length) break;
        const [type, flags] = [received[3], received[4]];
        const stream = received.readUInt32BE(5) & 0x7fffffff;
        const payload = received.subarray(9, 9 + length);
        received = received.subarray(9 + length);
        if (type === FRAME.SETTINGS && !(flags & 1)) socket.write(frame(FRAME.SETTINGS, 1, 0));
        if (type === FRAME.HEADERS) record(stream, statusOf(payload));
        if (type === FRAME.RST_STREAM) record(stream, 'RST_STREAM');
        if (type === FRAME.GOAWAY) {
          record(1, 'GOAWAY');
          outcome.control ??= 'GOAWAY (the connection closed)';
          return finish();
        }
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      outcome.case ??= 'closed';
      outcome.control ??= 'closed';
      finish();
    });
  });
}

const id = (name) => `h2-${name}-${randomUUID().slice(0, 8)}`;
const base = (method, path, requestId, extra = []) => [
  [':method', method],
  [':scheme', 'https'],
  [':path', path],
  [':authority', target.host],
  ['x-request-id', requestId],
  ...(token ? [['authorization', `Bearer ${token}`]] : []),
  ...extra,
];
const getWith = (name, header) => {
  const requestId = id(name);
  const headers = base('GET', readPath, requestId, [header]);
  return {
    name,
    requestId,
    frames: (s) => [frame(FRAME.HEADERS, END_HEADERS | END_STREAM, s, headerBlock(headers))],
  };
};
const body = Buffer.from('{"title":"Half"}');
const putWith = (name, contentLength, data, end) => {
  const requestId = id(name);
  const headers = base('PUT', writePath, requestId, [
    ['content-type', 'application/json'],
    ['content-length', String(contentLength)],
  ]);
  return {
    name,
    requestId,
    frames: (s) => [
      frame(FRAME.HEADERS, END_HEADERS, s, headerBlock(headers)),
      frame(FRAME.DATA, end === 'end' ? END_STREAM : 0, s, data),
      ...(end === 'reset' ? [frame(FRAME.RST_STREAM, 0, s, Buffer.from([0, 0, 0, 8]))] : []),
    ],
  };
};

const cases = [
  getWith('uppercase-name', ['X-Upper', 'a']),
  getWith('colon-in-name', ['x-a:b', 'c']),
  getWith('unknown-pseudo-header', [':evil', 'c']),
  getWith('cr-in-value', ['x-a', 'a\rb']),
  getWith('lf-in-value', ['x-a', 'a\nx-injected: b']),
  getWith('nul-in-value', ['x-a', 'a\0b']),
  getWith('space-in-name', ['x a', 'b']),
  putWith('content-length-over-data', body.length + 10, body, 'end'),
  putWith('content-length-under-data', body.length - 5, body, 'end'),
  putWith('reset-mid-body', body.length + 10, body, 'reset'),
];

const results = [];
for (const test of cases) {
  const outcome = await exchange(test.frames, test.name === 'reset-mid-body');
  results.push({ name: test.name, requestId: test.requestId, ...outcome });
}
const problems = results.flatMap(({ name, case: got, control }) => [
  ...(/^2\d\d$/.test(got) ? [`${name}: answered ${got}`] : []),
  ...(control !== '200' && !/GOAWAY|closed/.test(control)
    ? [`${name}: the next request got ${control}`]
    : []),
]);
console.log(JSON.stringify({ ok: problems.length === 0, problems, results }));
process.exit(problems.length === 0 ? 0 : 1);
