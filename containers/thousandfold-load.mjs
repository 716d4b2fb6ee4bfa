// The load of containers/thousandfold.sh: CLIENTS (64) keep-alive clients request every documented
// route and page of the three services through the edge for DURATION_S seconds (120), the way a
// hostile user would: default parameters, the largest limits, the deepest offsets, searches, the
// whole lists; `Accept-Encoding` absent, gzip, or br and gzip, in turn. The data is the one
// described by MANIFEST (bench/src/thousandfold-data.ts writes it); the services must hold it
// (their counts are checked first). Then it prints a table (per route: requests, statuses,
// failures, p50, p99 and max in ms) and one JSON line, and exits 1 on any 5xx, any request that
// got no answer (reset, timeout), any status other than the route's own, or any answer slower
// than SLOW_MS (10,000).
//   MANIFEST=data/manifest.json node containers/thousandfold-load.mjs GAMES_URL TRAVEL_URL CD_URL
import { readFileSync } from 'node:fs';
import http from 'node:http';

const [gamesUrl, travelUrl, cdUrl] = process.argv.slice(2);
const manifestFile = process.env.MANIFEST;
if (!cdUrl || !manifestFile) {
  console.error('usage: MANIFEST=FILE node thousandfold-load.mjs GAMES_URL TRAVEL_URL CD_URL');
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
const clients = Number(process.env.CLIENTS || 64);
const durationMs = Number(process.env.DURATION_S || 120) * 1000;
const slowMs = Number(process.env.SLOW_MS || 10_000);
// Past this an answer is given up (and counted as a failure, slower than SLOW_MS).
const timeoutMs = Number(process.env.TIMEOUT_MS || 30_000);

const agents = new Map();
const agentOf = (origin) => {
  if (!agents.has(origin))
    agents.set(origin, new http.Agent({ keepAlive: true, maxSockets: clients }));
  return agents.get(origin);
};
const encodings = [undefined, 'gzip', 'br, gzip'];
let sent = 0;

/** One request, its answer read whole: { status, headers, body (when asked), ms } or { failure, ms }. */
function request(method, url, { body, keepBody = false, encoding } = {}) {
  const target = new URL(url);
  const headers = {};
  if (encoding) headers['accept-encoding'] = encoding;
  if (body) headers['content-type'] = 'application/json';
  const start = performance.now();
  return new Promise((resolve) => {
    const done = (outcome) => resolve({ ...outcome, ms: performance.now() - start });
    const req = http.request(
      target,
      { method, headers, agent: agentOf(target.origin), timeout: timeoutMs },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => keepBody && chunks.push(chunk));
        res.on('end', () =>
          done({
            status: res.statusCode,
            headers: res.headers,
            body: keepBody ? Buffer.concat(chunks).toString() : '',
          }),
        );
        res.on('error', (error) => done({ failure: error.code ?? error.message }));
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (error) => done({ failure: error.code ?? error.message }));
    req.end(body);
  });
}

const results = new Map();
// Each answer slower than SLOW_MS: when it was asked (s into the load), what, and where it came from.
const slowAnswers = [];
let loadStart = performance.now();
/** Requests `url` as the route `route` expects (status `want`), and counts what came. */
async function measure(route, want, method, url, options = {}) {
  const encoding =
    options.encoding === undefined ? encodings[sent++ % encodings.length] : options.encoding;
  const asked = (performance.now() - loadStart) / 1000;
  const outcome = await request(method, url, { ...options, encoding });
  if (!results.has(route))
    results.set(route, { requests: 0, statuses: {}, failures: {}, unexpected: 0, slow: 0, ms: [] });
  const result = results.get(route);
  result.requests += 1;
  result.ms.push(outcome.ms);
  if (outcome.ms > slowMs) {
    result.slow += 1;
    slowAnswers.push({
      asked,
      route,
      encoding,
      cache: outcome.headers?.['x-cache'],
      ms: outcome.ms,
    });
  }
  if (outcome.failure)
    result.failures[outcome.failure] = (result.failures[outcome.failure] ?? 0) + 1;
  else {
    result.statuses[outcome.status] = (result.statuses[outcome.status] ?? 0) + 1;
    if (outcome.status !== want && outcome.status < 500) {
      result.unexpected += 1;
      if (result.unexpected <= 3)
        result.firstUnexpected = [...(result.firstUnexpected ?? []), `${outcome.status} ${url}`];
    }
  }
  return outcome;
}

// ---- What the services hold: the manifest's counts, and the CD ids to read.
async function json(url) {
  const answer = await request('GET', url, { keepBody: true });
  if (answer.status !== 200)
    throw new Error(
      `${url}: ${answer.status ?? answer.failure} ${answer.body?.slice(0, 200) ?? ''}`,
    );
  return { body: JSON.parse(answer.body), headers: answer.headers };
}
const games = manifest.games.count;
const destinations = manifest.destinations.count;
const cds = manifest.cds.count;
const held = {
  games: (await json(`${gamesUrl}/healthz`)).body.games,
  destinations: (await json(`${travelUrl}/healthz`)).body.destinations,
  cds: Number((await json(`${cdUrl}/cds?limit=1`)).headers['x-total-count']),
};
if (held.games !== games || held.destinations !== destinations || held.cds < cds) {
  console.error(
    `the services do not hold the data: ${JSON.stringify(held)}, want ${JSON.stringify({ games, destinations, cds })}`,
  );
  process.exit(1);
}
const cdIds = (
  await json(`${cdUrl}/cds?limit=1000&offset=${Math.max(0, Math.min(5000, cds - 1000))}`)
).body.map((cd) => cd.id);

// ---- The routes, each a function of a random source: every documented route and page.
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const upTo = (n) => Math.floor(Math.random() * n);
const gameId = () => 1 + upTo(games);
const words = manifest.games.words;
const genres = ['Action', 'RPG', 'Strategy', 'Puzzle', 'Platformer', 'Shooter'];
const deepOffset = (count, limit) => Math.max(0, count - limit - upTo(Math.min(count, 20 * limit)));
const searchPages = Math.ceil(games / 24);
const slug = () => pick(manifest.destinations.names).toLowerCase().replace(/ /g, '-');
const name = () => encodeURIComponent(pick(manifest.destinations.names));
const cdOffset = () => pick([10_000, 10_000 - upTo(1000), upTo(10_000)]);
const cursors = new Map(); // a client's next page by cursor

const g = (route, want, path) => () =>
  measure(`games ${route}`, want, 'GET', `${gamesUrl}${path()}`);
const t = (route, want, path) => () =>
  measure(`travel ${route}`, want, 'GET', `${travelUrl}${path()}`);
const c = (route, want, path) => () => measure(`cd ${route}`, want, 'GET', `${cdUrl}${path()}`);
const routes = [
  // games: the API
  g('/api/games (all)', 200, () => '/api/games'),
  g('/api/games?limit=1000', 200, () => '/api/games?limit=1000'),
  g(
    '/api/games?limit=1000&offset=deep',
    200,
    () => `/api/games?limit=1000&offset=${deepOffset(games, 1000)}`,
  ),
  g('/api/games?offset=past the end', 200, () => `/api/games?offset=${games + upTo(1000)}`),
  g(
    '/api/games?q=word&limit=1000',
    200,
    () => `/api/games?q=${pick(words)}&limit=1000&offset=${pick([0, upTo(games)])}`,
  ),
  g(
    '/api/games?q=word&sort=...',
    200,
    () =>
      `/api/games?q=${pick(words)}&sort=${pick(['title', '-rating', 'releaseYear', '-reviewCount'])}`,
  ),
  g(
    '/api/games?genre&minRating&sort&limit=1000',
    200,
    () =>
      `/api/games?genre=${pick(genres)}&minRating=${pick([0, 5, 8.5])}&sort=${pick(['-rating', 'title'])}&limit=1000&offset=${upTo(10_000)}`,
  ),
  g(
    '/api/games?from&to&sort&limit=1000',
    200,
    () =>
      `/api/games?from=${1980 + upTo(20)}&to=2025&sort=-releaseYear&limit=1000&offset=${deepOffset(games / 2, 1000)}`,
  ),
  g('/api/games?limit=0 (400)', 400, () => '/api/games?limit=0&colour=red'),
  g('/api/games/top-rated', 200, () => '/api/games/top-rated'),
  g('/api/games/hidden-gems', 200, () => '/api/games/hidden-gems'),
  g('/api/games/genre/:genre', 200, () => `/api/games/genre/${pick(genres).toLowerCase()}`),
  g('/api/games/genre/:genre?limit=1000', 200, () => `/api/games/genre/${pick(genres)}?limit=1000`),
  g('/api/games/:id', 200, () => `/api/games/${gameId()}`),
  g('/api/games/:id (404)', 404, () => `/api/games/${games + 1 + upTo(1000)}`),
  g('/api/games/:id/recommendations', 200, () => `/api/games/${gameId()}/recommendations`),
  // games: the pages
  g('/ (page)', 200, () => '/'),
  g('/top-rated (page)', 200, () => '/top-rated'),
  g('/hidden-gems (page)', 200, () => '/hidden-gems'),
  g('/games/:id (page)', 200, () => `/games/${gameId()}`),
  g('/games/:id/cover.svg', 200, () => `/games/${gameId()}/cover.svg`),
  g('/random (302)', 302, () => '/random'),
  g('/search (page)', 200, () =>
    pick(['/search', `/search?page=${Math.max(1, searchPages - upTo(100))}`]),
  ),
  // The word in every title has as many pages as the catalogue; a rare word or a studio, one.
  g('/search?q&sort&page=deep (page)', 200, () => {
    const [word, page] = pick([
      [words[0], 1 + upTo(searchPages)],
      [pick(words.slice(1)), 1],
    ]);
    return `/search?q=${word}&sort=${pick(['title', 'rating'])}&page=${page}`;
  }),
  g(
    '/search?genre&page=deep (page)',
    200,
    () => `/search?genre=${pick(genres).toLowerCase()}&page=${1 + upTo(searchPages / 12)}`,
  ),
  // travel: the API and the pages
  t('/api/itineraries (all)', 200, () => '/api/itineraries'),
  t('/api/itineraries/:destination', 200, () => `/api/itineraries/${pick([slug(), name()])}`),
  t(
    '/api/itineraries/:destination/highlights',
    200,
    () => `/api/itineraries/${pick([slug(), name()])}/highlights`,
  ),
  t('/api/itineraries/:destination (404)', 404, () => '/api/itineraries/atlantis'),
  t('/ (page)', 200, () => '/'),
  t('/itineraries?destination (302)', 302, () => `/itineraries?destination=${slug()}`),
  t('/itineraries/:destination (page)', 200, () => `/itineraries/${slug()}`),
  // cd: the list, by offset and by cursor, its filters, one CD, the writes
  c('/cds', 200, () => '/cds'),
  c(
    '/cds?limit=1000',
    200,
    () => `/cds?limit=1000&sort=${pick(['title', '-title', 'artist', '-releaseYear'])}`,
  ),
  c('/cds?limit&offset=deep', 200, () => `/cds?limit=${pick([100, 1000])}&offset=${cdOffset()}`),
  c('/cds?artist|genre|before&sort&limit&offset', 200, () => {
    const filter = pick([
      `artist=${encodeURIComponent(pick(manifest.cds.artists))}`,
      `genre=${pick(manifest.cds.genres)}`,
      `before=${1960 + upTo(60)}`,
      `genre=${pick(manifest.cds.genres)}&before=2000`,
    ]);
    return `/cds?${filter}&sort=${pick(['artist', '-releaseYear', 'title'])}&limit=${pick([10, 100, 1000])}&offset=${pick([0, cdOffset()])}`;
  }),
  c('/cds?fields=title&limit=1000', 200, () => `/cds?fields=title&limit=1000&offset=${cdOffset()}`),
  c('/cds/:id', 200, () => `/cds/${pick(cdIds)}`),
  c('/cds?offset=10001 (400)', 400, () => '/cds?offset=10001'),
  async (client) => {
    const next =
      cursors.get(client) ??
      `/cds?limit=${pick([100, 1000])}&sort=${pick(['title', 'artist', '-releaseYear'])}`;
    const answer = await measure('cd /cds?cursor (next pages)', 200, 'GET', `${cdUrl}${next}`);
    const link = /<([^>]+)>; rel="next"/.exec(answer.headers?.link ?? '')?.[1];
    if (link) cursors.set(client, link);
    else cursors.delete(client);
  },
  async () => {
    const cd = { title: 'Thousandfold', artist: 'The Load', genre: 'Noise', releaseYear: 2020 };
    const created = await measure('cd POST /cds', 201, 'POST', `${cdUrl}/cds`, {
      body: JSON.stringify(cd),
      keepBody: true,
    });
    const id = created.status === 201 ? JSON.parse(created.body).id : undefined;
    if (!id) return;
    await measure('cd PUT /cds/:id', 200, 'PUT', `${cdUrl}/cds/${id}`, {
      body: '{"genre":"Drone"}',
    });
    await measure('cd DELETE /cds/:id', 204, 'DELETE', `${cdUrl}/cds/${id}`);
  },
  // What every service has: the probes and the API reference; its metrics the edge refuses (404).
  ...[
    ['games', gamesUrl],
    ['travel', travelUrl],
    ['cd', cdUrl],
  ].flatMap(([service, url]) =>
    [
      ['/healthz', 200],
      ['/livez', 200],
      ['/readyz', 200],
      ['/metrics (refused at the edge)', 404],
      ['/docs', 200],
      ['/openapi.json', 200],
    ].map(
      ([path, want]) =>
        () =>
          measure(`${service} ${path}`, want, 'GET', `${url}${path.split(' ')[0]}`),
    ),
  ),
  c('/ (303 to /docs)', 303, () => '/'),
];

// ---- The load: each client walks the routes in turn from a place of its own, until the deadline.
loadStart = performance.now();
const deadline = loadStart + durationMs;
await Promise.all(
  Array.from({ length: clients }, async (_, client) => {
    for (let i = client; performance.now() < deadline; i++) await routes[i % routes.length](client);
  }),
);

// ---- The summary
const quantile = (sorted, q) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
// By service, then route: the order in which they finished says nothing.
const rows = [...results]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([route, r]) => {
    const sorted = Float64Array.from(r.ms).sort();
    return {
      route,
      ...r,
      ms: undefined,
      p50: quantile(sorted, 0.5),
      p99: quantile(sorted, 0.99),
      max: sorted.at(-1) ?? 0,
    };
  });
const bad = (r) =>
  Object.keys(r.statuses).some((status) => status >= 500) ||
  Object.keys(r.failures).length > 0 ||
  r.slow > 0 ||
  r.unexpected > 0;
const width = Math.max(...rows.map((r) => r.route.length));
console.error(
  `${'route'.padEnd(width)}  requests  statuses (failures)          p50 ms   p99 ms   max ms`,
);
for (const r of rows) {
  const statuses = Object.entries({ ...r.statuses, ...r.failures })
    .map(([k, v]) => `${k}:${v}`)
    .join(' ');
  console.error(
    `${r.route.padEnd(width)}  ${String(r.requests).padStart(8)}  ${statuses.padEnd(28)} ${r.p50.toFixed(0).padStart(7)}  ${r.p99.toFixed(0).padStart(7)}  ${r.max.toFixed(0).padStart(7)}${bad(r) ? '  FAIL' : ''}`,
  );
}
if (slowAnswers.length > 0) {
  console.error(
    `the answers slower than ${slowMs} ms (asked at s into the load, route, encoding, X-Cache, ms):`,
  );
  for (const a of slowAnswers.sort((x, y) => x.asked - y.asked).slice(0, 60))
    console.error(
      `  ${a.asked.toFixed(1).padStart(6)}  ${a.route}  ${a.encoding ?? 'identity'}  ${a.cache ?? '-'}  ${a.ms.toFixed(0)}`,
    );
}
const total = { requests: 0, statuses: {}, failures: {}, slow: 0, unexpected: 0 };
for (const r of rows) {
  total.requests += r.requests;
  total.slow += r.slow;
  total.unexpected += r.unexpected;
  for (const [k, v] of Object.entries(r.statuses)) total.statuses[k] = (total.statuses[k] ?? 0) + v;
  for (const [k, v] of Object.entries(r.failures)) total.failures[k] = (total.failures[k] ?? 0) + v;
}
const failures = rows.filter(bad).map((r) => ({
  route: r.route,
  statuses: r.statuses,
  failures: r.failures,
  slow: r.slow,
  unexpected: r.firstUnexpected,
}));
console.log(
  JSON.stringify({ clients, seconds: durationMs / 1000, held, ...total, failed: failures }),
);
process.exit(failures.length > 0 ? 1 : 0);
