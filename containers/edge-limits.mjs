// The edge's per-client limits, seen from outside (containers/README.md#per-client-limits). Three
// roles, each printing one JSON line and exiting 1 when what it saw is not what the edge promises:
//
//   node edge-limits.mjs budget API_URL PAGE_URL WRITE_URL
//     Sends WRITE_URL (a DELETE of a CD that does not exist), then reads API_URL, each until the
//     edge refuses (at most its RateLimit-Policy's quota, plus 50). Each refusal must be a 429
//     with Retry-After, RateLimit at 0, a JSON body, and CORS headers that a script on another
//     origin can read; reads must still be answered while writes are refused; PAGE_URL, past the
//     budget, must get the 429 as a page; after Retry-After, API_URL must be answered again.
//   node edge-limits.mjs hold URL CONNECTIONS SECONDS
//     Opens CONNECTIONS connections to URL's host, each sending half a request line, and holds
//     them SECONDS: prints how many the edge closed within a second of their opening (it should
//     close at once every one past its per-address limit) and how many it held longer.
//   node edge-limits.mjs trickle URL REQUESTS SECONDS
//     Sends REQUESTS requests to URL, each on its own connection, with a Content-Length of 1,000
//     and a body of one byte a second, for SECONDS: prints what each got (a replica's place must
//     not be held by a body that never ends; the edge answers 408 after `timeout http-request`).
//   node edge-limits.mjs read URL SECONDS
//     Reads URL for SECONDS, 20 requests a second at most, one at a time, each on a new
//     connection (a bystander at another address, well within its budget): fails on any answer
//     other than 200; prints the p99 and the slowest, in ms.
import http from 'node:http';
import { connect } from 'node:net';

const [role, ...args] = process.argv.slice(2);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const agent = new http.Agent({ keepAlive: role !== 'read', maxSockets: 1 });

function request(url, method = 'GET', headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers, timeout: 30_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} in 30 s`)));
    req.on('error', reject);
    req.end();
  });
}

/** The quota of a policy named in RateLimit-Policy (`"requests";q=1000;w=10, ...`). */
function quota(policyHeader, name) {
  const match = new RegExp(`"${name}";q=(\\d+)`).exec(policyHeader ?? '');
  if (!match) throw new Error(`no "${name}" policy in RateLimit-Policy: ${policyHeader}`);
  return Number(match[1]);
}

/** Sends until the edge refuses; returns the refusal and how many were answered before it. */
async function untilRefused(url, method, most) {
  for (let sent = 0; sent < most; sent++) {
    const answer = await request(url, method);
    if (answer.status === 429) return { answer, answered: sent };
  }
  throw new Error(`${method} ${url}: ${most} requests, none refused`);
}

function problemsOfRefusal({ status, headers, body }, kind) {
  const problems = [];
  if (status !== 429) problems.push(`status ${status}`);
  const retryAfter = headers['retry-after'];
  if (!/^\d+$/.test(retryAfter ?? '')) problems.push(`Retry-After ${retryAfter}`);
  if (!/;r=0;/.test(headers.ratelimit ?? '')) problems.push(`RateLimit ${headers.ratelimit}`);
  if (headers['access-control-allow-origin'] !== '*')
    problems.push('no Access-Control-Allow-Origin: *');
  const exposed = (headers['access-control-expose-headers'] ?? '').split(',');
  for (const name of ['Retry-After', 'RateLimit', 'RateLimit-Policy'])
    if (!exposed.includes(name)) problems.push(`${name} not exposed to scripts`);
  const type = headers['content-type'] ?? '';
  const said =
    /^Too many (requests|writes) from this address in the last 10 s; try again in 10 s$|^Too many requests at once from this address; try again in 10 s$/;
  if (
    kind === 'json' &&
    !(
      type.startsWith('application/json') &&
      JSON.parse(body).status === 429 &&
      said.test(JSON.parse(body).error)
    )
  )
    problems.push(`not the JSON error: ${type} ${body.slice(0, 120)}`);
  if (kind === 'page' && !(type.startsWith('text/html') && body.includes('<h1>Too many requests')))
    problems.push(`not the page: ${type}`);
  return problems;
}

async function budget(apiUrl, pageUrl, writeUrl) {
  const first = await request(apiUrl);
  const requests = quota(first.headers['ratelimit-policy'], 'requests');
  const writes = quota(first.headers['ratelimit-policy'], 'writes');
  const problems = [];
  const deletes = await untilRefused(writeUrl, 'DELETE', writes + 50);
  problems.push(...problemsOfRefusal(deletes.answer, 'json').map((p) => `write refusal: ${p}`));
  const readBesideWrites = await request(apiUrl);
  if (readBesideWrites.status !== 200)
    problems.push(`a read while the writes are refused: ${readBesideWrites.status}`);
  const reads = await untilRefused(apiUrl, 'GET', requests + 50);
  problems.push(...problemsOfRefusal(reads.answer, 'json').map((p) => `read refusal: ${p}`));
  const page = await request(pageUrl);
  problems.push(...problemsOfRefusal(page, 'page').map((p) => `page refusal: ${p}`));
  const waitS = Number(reads.answer.headers['retry-after']);
  await sleep(waitS * 1000 + 500);
  const again = await request(apiUrl);
  if (again.status !== 200) problems.push(`after Retry-After (${waitS} s): ${again.status}`);
  return {
    ok: problems.length === 0,
    problems,
    policy: first.headers['ratelimit-policy'],
    writesAnsweredBeforeRefusal: deletes.answered,
    readsAnsweredBeforeRefusal: reads.answered,
    retryAfterS: waitS,
  };
}

async function hold(url, connections, seconds) {
  const { hostname, port } = new URL(url);
  let closedAtOnce = 0;
  const sockets = [];
  for (let i = 0; i < connections; i++) {
    const opened = performance.now();
    const socket = connect(Number(port), hostname, () => socket.write('GET /api/ga'));
    socket.on('error', () => {});
    socket.on('close', () => {
      if (performance.now() - opened < 1000) closedAtOnce += 1;
    });
    sockets.push(socket);
    if (i % 100 === 99) await sleep(10);
  }
  await sleep(seconds * 1000);
  const held = sockets.filter((socket) => !socket.destroyed).length;
  for (const socket of sockets) socket.destroy();
  return { ok: true, connections, closedAtOnce, heldToTheEnd: held };
}

async function trickle(url, requests, seconds) {
  const { hostname, port, pathname, search } = new URL(url);
  const answers = {};
  const sockets = [];
  for (let i = 0; i < requests; i++) {
    const socket = connect(Number(port), hostname, () =>
      socket.write(
        `GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
      ),
    );
    let first = '';
    socket.on('data', (chunk) => {
      if (first) return;
      first = chunk.toString('latin1').split('\r\n')[0] ?? '';
      answers[first] = (answers[first] ?? 0) + 1;
    });
    socket.on('error', () => {});
    const drip = setInterval(() => socket.writable && socket.write(' '), 1000);
    socket.on('close', () => clearInterval(drip));
    sockets.push(socket);
  }
  await sleep(seconds * 1000);
  for (const socket of sockets) socket.destroy();
  return { ok: true, requests, answers };
}

async function read(url, seconds) {
  const deadline = performance.now() + seconds * 1000;
  const times = [];
  const statuses = {};
  while (performance.now() < deadline) {
    const start = performance.now();
    let status;
    try {
      status = (await request(url)).status;
    } catch (error) {
      status = error.code ?? error.message;
    }
    const took = performance.now() - start;
    times.push(took);
    statuses[status] = (statuses[status] ?? 0) + 1;
    await sleep(Math.max(0, 50 - took));
  }
  times.sort((a, b) => a - b);
  const p99 = times[Math.min(times.length - 1, Math.floor(times.length * 0.99))];
  const ok = Object.keys(statuses).every((status) => status === '200');
  const [p99Ms, maxMs] = [p99, times.at(-1)].map(Math.round);
  return { ok, requests: times.length, statuses, p99Ms, maxMs };
}

const roles = {
  budget: () => budget(args[0], args[1], args[2]),
  hold: () => hold(args[0], Number(args[1]), Number(args[2])),
  trickle: () => trickle(args[0], Number(args[1]), Number(args[2])),
  read: () => read(args[0], Number(args[1])),
};
if (!roles[role] || args.length < (role === 'read' ? 2 : 3)) {
  console.error(
    'usage: node edge-limits.mjs budget API_URL PAGE_URL WRITE_URL | hold URL CONNECTIONS SECONDS' +
      ' | trickle URL REQUESTS SECONDS | read URL SECONDS',
  );
  process.exit(2);
}
const outcome = await roles[role]().catch((error) => ({ ok: false, problems: [error.message] }));
console.log(JSON.stringify(outcome));
process.exit(outcome.ok ? 0 : 1);
