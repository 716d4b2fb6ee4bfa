// A steady load, for the smoke test's rolling restart and its hung and killed replicas: for each
// URL given, WORKERS loops (4 by default) over keep-alive connections, each sending one request at
// a time and reading the whole answer, PAUSE_MS (50) apart, until SIGTERM or SIGINT. Then it
// prints one JSON line: per URL, the requests sent, the answers by status, the failures by cause
// (a reset, a refused connection, a timeout), and the slowest answer in ms, and exits.
// About 15 requests a second per client: enough to have requests in flight whenever a replica
// stops or starts, without taking the cores from what runs beside it (CI runs the tests there).
// `{n}` in a URL is replaced by a number new at each request (a path the edge's cache never
// holds). `PUT <url>` sends a PUT of WRITE_BODY (JSON) with WRITE_TOKEN as its bearer token.
//   node containers/steady-load.mjs http://127.0.0.1:3001/ 'PUT http://127.0.0.1:3003/cds/<id>' & ...; kill $!
import http from 'node:http';

const urls = process.argv.slice(2);
const workers = Number(process.env.WORKERS || 4);
const pauseMs = Number(process.env.PAUSE_MS || 50);
const timeoutMs = Number(process.env.TIMEOUT_MS || 10_000);
if (urls.length === 0) {
  console.error('usage: node steady-load.mjs URL...');
  process.exit(2);
}

let stopping = false;
const results = Object.fromEntries(
  urls.map((url) => [url, { requests: 0, statuses: {}, failures: {}, slowestMs: 0 }]),
);
let sent = 0;
const count = (table, key) => {
  table[key] = (table[key] ?? 0) + 1;
};

function once(target, agent) {
  const [method, url] = target.startsWith('PUT ') ? ['PUT', target.slice(4)] : ['GET', target];
  const body = method === 'PUT' ? process.env.WRITE_BODY : undefined;
  const headers = body
    ? { 'content-type': 'application/json', authorization: `Bearer ${process.env.WRITE_TOKEN}` }
    : {};
  return new Promise((resolve) => {
    const options = { method, headers, agent, timeout: timeoutMs };
    const request = http.request(url.replaceAll('{n}', String(++sent)), options, (response) => {
      response.on('data', () => {});
      response.on('end', () => resolve(String(response.statusCode)));
      response.on('error', (error) => resolve(`error:${error.code ?? error.message}`));
    });
    request.on('timeout', () =>
      request.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })),
    );
    // A kept-alive connection closed with no answer at all is not a reset: HAProxy closes the
    // client's connection without a response when the request was not the first on it and its
    // replica died under it (HAProxy's `abort_keep_alive`: the client is to retry, RFC 9112
    // section 9.3.1). Counted apart, so that a check can tell it from a reset of a new connection.
    request.on('error', (error) => {
      const code = error.code ?? error.message;
      resolve(
        `error:${request.reusedSocket && code === 'ECONNRESET' ? 'unanswered-on-kept-alive' : code}`,
      );
    });
    request.end(body);
  });
}

async function worker(url, agent) {
  const result = results[url];
  while (!stopping) {
    const start = performance.now();
    const outcome = await once(url, agent);
    result.slowestMs = Math.max(result.slowestMs, Math.round(performance.now() - start));
    result.requests += 1;
    if (outcome.startsWith('error:')) count(result.failures, outcome.slice(6));
    else count(result.statuses, outcome);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

const running = urls.flatMap((url) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: workers });
  return Array.from({ length: workers }, () => worker(url, agent));
});
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    stopping = true;
  });
}
await Promise.all(running);
console.log(JSON.stringify(results));
process.exit(0);
