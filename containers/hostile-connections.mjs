// Hostile connections beside well-behaved clients, on raw sockets: for DURATION_S seconds (20),
// attackers send each service what a careless or hostile client may (CONNECT and Upgrade, framing
// fields in the trailers, bodies half sent, resets before, during and after an answer, pipelined
// requests), while BYSTANDERS (12) keep-alive clients read the URLs given. Every bystander request
// carries an X-Request-Id of its own, and `Authorization` so that an edge in front passes it to a
// replica rather than its cache. Then it prints one JSON line and exits 1 if a bystander or a
// pipelined request got an answer that was not its own (another id, or a 400 it never earned) or
// no answer at all, or if a request got two answers, else 0. Whether the services' processes stayed up is for the caller to check
// (the same pid; Docker's restart count).
//   node containers/hostile-connections.mjs http://127.0.0.1:3001/api/games/1 http://127.0.0.1:3003/cds ...
// Each URL is a bystander's path; the attacks go to every origin among them, on that path.
// Beside them, for each origin that serves /cds (cd-service), WRITERS (2) keep-alive clients each
// change a CD of their own in a loop (PUT with If-Match, `Authorization: Bearer $CD_API_TOKEN`):
// a write is not retried by an edge as a read is, so a connection lost under it is seen here.
import http from 'node:http';
import { connect } from 'node:net';

const urls = process.argv.slice(2).map((url) => new URL(url));
const durationMs = Number(process.env.DURATION_S || 20) * 1000;
const bystanders = Number(process.env.BYSTANDERS || 12);
/** How long an attacker waits between two attacks of its kind. */
const pauseMs = Number(process.env.PAUSE_MS || 100);
if (urls.length === 0) {
  console.error('usage: node hostile-connections.mjs URL...');
  process.exit(2);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const deadline = performance.now() + durationMs;
const running = () => performance.now() < deadline;
const count = (table, key) => {
  table[key] = (table[key] ?? 0) + 1;
};

/**
 * A raw connection: `send` writes, `firstBytes` resolves at the first bytes received (or at the
 * close), `closed` with all that was received, `received` tells what was received so far.
 */
function rawConnection(url) {
  const socket = connect(Number(url.port), url.hostname);
  let received = '';
  let onData = () => {};
  const firstBytes = new Promise((resolve) => {
    onData = resolve;
  });
  socket.on('data', (chunk) => {
    received += chunk;
    onData();
  });
  socket.on('error', () => {});
  const closed = new Promise((resolve) =>
    socket.on('close', () => {
      onData();
      resolve(received);
    }),
  );
  setTimeout(() => socket.destroy(), 5000).unref();
  return { socket, firstBytes, closed, send: (text) => socket.write(text), received: () => received };
}

const target = (url) => `${url.pathname}${url.search}`;
const head = (method, url, lines = []) =>
  [`${method} ${target(url)} HTTP/1.1`, `Host: ${url.host}`, 'Authorization: Bearer hostile', ...lines, '', ''].join('\r\n');
const chunkedHead = (url) => head('GET', url, ['Transfer-Encoding: chunked']);

/** A request with framing fields in its trailers gets one answer at most, never a second one. */
async function oneAnswerAtMost(c) {
  await c.firstBytes;
  await sleep(20);
  c.socket.end();
  const answers = (await c.closed).match(/^HTTP\/1\.1 \d{3}/gm)?.length ?? 0;
  if (answers > 1) {
    report.doubleAnswers += 1;
    example(`${answers} answers to one request with framing fields in its trailers`);
  }
}

/** Each attack: one connection, then what it does on it. */
const attacks = {
  async 'CONNECT, reset once answered'(url) {
    const c = rawConnection(url);
    c.send(`CONNECT ${url.hostname}:1 HTTP/1.1\r\nHost: ${url.hostname}:1\r\n\r\n`);
    await c.firstBytes;
    c.socket.resetAndDestroy();
  },
  async 'CONNECT, reset at once'(url) {
    const c = rawConnection(url);
    c.socket.once('connect', () => {
      c.send(`CONNECT ${url.hostname}:1 HTTP/1.1\r\nHost: ${url.hostname}:1\r\n\r\n`);
      c.socket.resetAndDestroy();
    });
    await c.closed;
  },
  async 'Upgrade, reset once answered'(url) {
    const c = rawConnection(url);
    c.send(head('GET', url, ['Connection: Upgrade', 'Upgrade: websocket']));
    await c.firstBytes;
    c.socket.resetAndDestroy();
  },
  async 'Content-Length in the trailers'(url) {
    const c = rawConnection(url);
    c.send(`${chunkedHead(url)}5\r\nAAAAA\r\n0\r\nContent-Length: 5\r\n\r\n`);
    await oneAnswerAtMost(c);
  },
  async 'Content-Length in the trailers, sent once answered'(url) {
    const c = rawConnection(url);
    c.send(`${chunkedHead(url)}5\r\nAAAAA\r\n`);
    await c.firstBytes;
    c.send('0\r\nContent-Length: 5\r\n\r\n');
    await oneAnswerAtMost(c);
  },
  async 'Transfer-Encoding in the trailers'(url) {
    const c = rawConnection(url);
    c.send(`${chunkedHead(url)}5\r\nAAAAA\r\n0\r\nTransfer-Encoding: chunked\r\n\r\n`);
    await oneAnswerAtMost(c);
  },
  async 'a body half sent, then closed'(url) {
    const c = rawConnection(url);
    c.send(`${head('POST', url, ['Content-Type: application/json', 'Content-Length: 100'])}{"title":`);
    await sleep(20);
    c.socket.end();
  },
  async 'a body half sent, then reset'(url) {
    const c = rawConnection(url);
    c.send(`${head('PUT', url, ['Content-Type: application/json', 'Content-Length: 100'])}{"title":`);
    await sleep(20);
    c.socket.resetAndDestroy();
  },
  async 'reset before the answer'(url) {
    const c = rawConnection(url);
    c.socket.once('connect', () => {
      c.send(head('GET', url));
      c.socket.resetAndDestroy();
    });
    await c.closed;
  },
  async 'reset during the answer'(url) {
    const c = rawConnection(url);
    c.send(head('GET', url));
    await c.firstBytes;
    c.socket.resetAndDestroy();
  },
  async 'reset after the answer'(url) {
    const c = rawConnection(url);
    c.send(head('GET', url));
    await c.firstBytes;
    await sleep(50);
    c.socket.resetAndDestroy();
  },
};

const report = {
  durationS: durationMs / 1000,
  bystanders: { requests: 0, own: 0, foreign: 0, failures: {}, statuses: {} },
  writers: { requests: 0, own: 0, foreign: 0, failures: {} },
  pipelined: { requests: 0, own: 0, wrong: 0 },
  doubleAnswers: 0,
  attacks: {},
  examples: [],
};
const example = (text) => {
  if (report.examples.length < 5) report.examples.push(text);
};

/** Three requests in one write, each answered once, in order, with its own id. */
async function pipelined(url, n) {
  const ids = [1, 2, 3].map((i) => `pipelined-${n}-${i}`);
  const c = rawConnection(url);
  c.send(ids.map((id) => head('GET', url, [`X-Request-Id: ${id}`])).join(''));
  const answeredIds = () => [...c.received().matchAll(/^x-request-id: *(\S+)/gim)].map((match) => match[1]);
  // Every answer, or 5 s; then a moment more for one answer too many.
  for (let waited = 0; answeredIds().length < ids.length && !c.socket.destroyed && waited < 5000; waited += 20) {
    await sleep(20);
  }
  await sleep(50);
  c.socket.destroy();
  const answered = answeredIds();
  report.pipelined.requests += ids.length;
  for (const [i, id] of ids.entries()) {
    if (answered[i] === id) report.pipelined.own += 1;
    else {
      report.pipelined.wrong += 1;
      example(`pipelined ${id}: got ${answered[i] ?? 'no answer'}`);
    }
  }
  if (answered.length > ids.length) example(`pipelined: ${answered.length} answers to 3 requests`);
  report.pipelined.wrong += Math.max(0, answered.length - ids.length);
}

function bystanderRequest(url, agent, id) {
  return new Promise((resolve) => {
    const options = { agent, timeout: 10_000, headers: { 'X-Request-Id': id, Authorization: 'Bearer bystander' } };
    const request = http.get(url, options, (response) => {
      let body = '';
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode, id: response.headers['x-request-id'], body }));
      response.on('error', (error) => resolve({ error: error.code ?? error.message }));
    });
    request.on('timeout', () => request.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    request.on('error', (error) => resolve({ error: error.code ?? error.message }));
  });
}

async function bystander(n) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const { bystanders: seen } = report;
  for (let i = 0; running(); i += 1) {
    const url = urls[(n + i) % urls.length];
    const id = `bystander-${n}-${i}`;
    const answer = await bystanderRequest(url, agent, id);
    seen.requests += 1;
    if (answer.error) {
      count(seen.failures, answer.error);
      example(`${id} ${url}: ${answer.error}`);
    } else {
      count(seen.statuses, answer.status);
      // A 400 to a well-formed request is another connection's error, whatever its id says.
      if (answer.id === id && answer.status !== 400) seen.own += 1;
      else {
        seen.foreign += 1;
        example(`${id} ${url}: ${answer.status} for ${answer.id}: ${answer.body.slice(0, 80)}`);
      }
    }
  }
  agent.destroy();
}

/** One write of a writer: its status, X-Request-Id, ETag and body, or the error that ended it. */
function writeRequest(url, agent, method, id, headers, body) {
  return new Promise((resolve) => {
    const options = {
      method,
      agent,
      timeout: 10_000,
      headers: {
        'X-Request-Id': id,
        Authorization: `Bearer ${process.env.CD_API_TOKEN || 'bystander'}`,
        'Content-Type': 'application/json',
        ...headers,
      },
    };
    const request = http.request(url, options, (response) => {
      let text = '';
      response.on('data', (chunk) => {
        text += chunk;
      });
      response.on('end', () =>
        resolve({ status: response.statusCode, id: response.headers['x-request-id'], etag: response.headers.etag, text }),
      );
      response.on('error', (error) => resolve({ error: error.code ?? error.message }));
    });
    request.on('timeout', () => request.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    request.on('error', (error) => resolve({ error: error.code ?? error.message }));
    request.end(body);
  });
}

/** A keep-alive client that creates a CD, then changes it under If-Match until the end. */
async function writer(origin, n) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const { writers: seen } = report;
  const cdBody = JSON.stringify({ title: `Writer ${n}`, artist: 'Bystander', genre: 'Rock', releaseYear: 2001 });
  const created = await writeRequest(new URL('/cds', origin), agent, 'POST', `writer-${n}-create`, {}, cdBody);
  if (created.status !== 201) {
    count(seen.failures, `create: ${created.error ?? created.status}`);
    agent.destroy();
    return;
  }
  const cd = new URL(`/cds/${JSON.parse(created.text).id}`, origin);
  let etag = created.etag;
  for (let i = 0; running(); i += 1) {
    const id = `writer-${n}-${i}`;
    const change = JSON.stringify({ title: `Writer ${n} #${i}` });
    const answer = await writeRequest(cd, agent, 'PUT', id, { 'If-Match': etag }, change);
    seen.requests += 1;
    if (answer.error) {
      count(seen.failures, answer.error);
      example(`${id} PUT ${cd.pathname}: ${answer.error}`);
    } else if (answer.id === id && answer.status === 200) {
      seen.own += 1;
      etag = answer.etag;
      continue;
    } else {
      seen.foreign += 1;
      example(`${id} PUT ${cd.pathname}: ${answer.status} for ${answer.id}: ${answer.text.slice(0, 80)}`);
    }
    // The write's fate is unknown: read the CD again for its tag.
    etag = (await writeRequest(cd, agent, 'GET', `${id}-read`)).etag ?? etag;
  }
  agent.destroy();
}

async function attacker(kind, url) {
  for (let n = 0; running(); n += 1) {
    await attacks[kind](url).catch(() => {});
    count(report.attacks, kind);
    await sleep(pauseMs);
  }
}

async function pipeliner(url) {
  for (let n = 0; running(); n += 1) {
    await pipelined(url, n);
    count(report.attacks, 'pipelined requests');
  }
}

const origins = [...new Map(urls.map((url) => [url.origin, url])).values()];
const writers = Number(process.env.WRITERS ?? 2);
const cdOrigins = [...new Set(urls.filter((url) => /^\/cds(\/|$)/.test(url.pathname)).map((url) => url.origin))];
await Promise.all([
  ...Array.from({ length: bystanders }, (_, n) => bystander(n)),
  ...cdOrigins.flatMap((origin) => Array.from({ length: writers }, (_, n) => writer(origin, n))),
  ...origins.flatMap((url) => [...Object.keys(attacks).map((kind) => attacker(kind, url)), pipeliner(url)]),
]);
console.log(JSON.stringify(report));
const failures = Object.values(report.bystanders.failures).reduce((sum, n) => sum + n, 0);
const { bystanders: seen, pipelined: piped, doubleAnswers, writers: wrote } = report;
const writeFailures = Object.values(wrote.failures).reduce((sum, n) => sum + n, 0);
process.exit(seen.foreign + failures + piped.wrong + doubleAnswers + wrote.foreign + writeFailures > 0 ? 1 : 0);
