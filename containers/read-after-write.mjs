// Reads never go back in time through the edge: one writer changes one CD again and again
// (PUT, title "v1", "v2", ...), while READERS loops (12 by default) read it, in turn as the record
// (GET /cds/:id) and as a list (GET /cds?artist=...). A read that starts after a write was
// acknowledged must show that write or a later one; a list's X-Total-Count must match its body.
// After SECONDS (20) it prints one JSON line (reads, writes, stale reads, mismatched lists,
// failures) and exits 1 when any read was stale or mismatched, or nothing was read.
//   CD_API_TOKEN=... node containers/read-after-write.mjs http://127.0.0.1:3003
import http from 'node:http';

const [base] = process.argv.slice(2);
const readers = Number(process.env.READERS || 12);
const seconds = Number(process.env.SECONDS_RUN || 20);
const token = process.env.CD_API_TOKEN || '';
if (!base) {
  console.error('usage: node read-after-write.mjs BASE_URL');
  process.exit(2);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: readers + 2 });
function send(method, path, body) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const headers = { Accept: 'application/json' };
    if (data) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) });
    if (token && method !== 'GET') headers.Authorization = `Bearer ${token}`;
    const request = http.request(new URL(path, base), { method, agent, headers, timeout: 10_000 }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode, headers: response.headers, body: text ? JSON.parse(text) : null });
      });
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', reject);
    request.end(data);
  });
}

const artist = `Read After Write ${process.pid}-${Date.now()}`;
const created = await send('POST', '/cds', { title: 'v0', artist, genre: 'Ambient', releaseYear: 2024 });
if (created.status !== 201) {
  console.error(`POST /cds: ${created.status} ${JSON.stringify(created.body)}`);
  process.exit(1);
}
const { id } = created.body;
const versionOf = (cd) => Number(String(cd?.title ?? '').slice(1));

const result = { reads: 0, writes: 0, stale: 0, mismatchedLists: 0, failures: {}, examples: [] };
const fail = (what) => {
  result.failures[what] = (result.failures[what] ?? 0) + 1;
};
let acknowledged = 0;
const until = Date.now() + seconds * 1000;

async function writer() {
  for (let next = 1; Date.now() < until; next++) {
    try {
      const answer = await send('PUT', `/cds/${id}`, { title: `v${next}` });
      if (answer.status === 200) {
        acknowledged = next;
        result.writes += 1;
      } else fail(`PUT ${answer.status}`);
    } catch (error) {
      fail(`PUT ${error.message}`);
    }
  }
}

async function reader(n) {
  for (let i = n; Date.now() < until; i++) {
    const floor = acknowledged;
    const asList = i % 2 === 1;
    try {
      const answer = asList
        ? await send('GET', `/cds?artist=${encodeURIComponent(artist)}`)
        : await send('GET', `/cds/${id}`);
      if (answer.status !== 200) {
        fail(`GET ${answer.status}`);
        continue;
      }
      result.reads += 1;
      const cd = asList ? answer.body[0] : answer.body;
      if (asList) {
        const total = answer.headers['x-total-count'];
        if (!Array.isArray(answer.body) || (total !== undefined && Number(total) !== answer.body.length)) {
          result.mismatchedLists += 1;
        }
      }
      if (versionOf(cd) < floor) {
        result.stale += 1;
        if (result.examples.length < 5) {
          result.examples.push({ asList, saw: versionOf(cd), acknowledgedBefore: floor, xCache: answer.headers['x-cache'] });
        }
      }
    } catch (error) {
      fail(`GET ${error.message}`);
    }
  }
}

await Promise.all([writer(), ...Array.from({ length: readers }, (_, n) => reader(n))]);
console.log(JSON.stringify(result));
process.exit(result.stale === 0 && result.mismatchedLists === 0 && result.reads > 0 && result.writes > 0 ? 0 : 1);
