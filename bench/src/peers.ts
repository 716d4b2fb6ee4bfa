// games-service against two peer stacks built the way their own documentation shows, on the same
// route with the same features: the CPU time each server process spends per request of
// GET /api/games/1 (user and system, every thread, from /proc), loaded in turn round after round.
//
//   node --import tsx src/peers.ts [--rounds 8] [--seconds 2] [--connections 32] [--log-requests] [--no-pin]
//
// The three contenders, each a process of its own on 127.0.0.1:
// - ours: the compiled games-service (`make build`), started as the bench starts it (the node
//   command of its `npm start`, ITINERARY_SEED=bench, LOG_REQUESTS=false);
// - koa: koa + @koa/router + koa-helmet + koa-compress + koa-conditional-get + @koa/etag +
//   @koa/cors + koa-pino-logger, with a request id (src/servers/peer-koa.ts);
// - fastify: fastify and its pino logger + @fastify/helmet + @fastify/compress + @fastify/etag +
//   @fastify/cors, with a response schema (src/servers/peer-fastify.ts).
// The peers run with the Node flags of games-service's `npm start` and answer from the same seed
// file, with the same body; each file's header says where it differs from ours. Before loading,
// each answer is checked: the body equal to ours, Cache-Control, a weak ETag and its 304, Vary,
// X-Request-Id; and whether an answer asked for with `Accept-Encoding: br, gzip` was compressed.
import { existsSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { alternate, median, type Round, type RunSettings, summarize } from './compare.js';
import { type RawResponse, type Request, send } from './load.js';
import {
  pinToCores,
  type RunningProcess,
  repoRoot,
  serviceNodeFlags,
  startProcess,
  startService,
} from './process.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    'log-requests': { type: 'boolean', default: false },
    'no-pin': { type: 'boolean', default: false },
  },
});
const settings: RunSettings = {
  rounds: Number(values.rounds),
  seconds: Number(values.seconds),
  warmSeconds: 2,
  connections: Number(values.connections),
};
if (![settings.rounds, settings.seconds, settings.connections].every((n) => n >= 1)) {
  console.error(
    'usage: peers.ts [--rounds N] [--seconds S] [--connections C] [--log-requests] [--no-pin]',
  );
  process.exit(2);
}
if (!existsSync(join(repoRoot, 'games-service', 'dist', 'server.js'))) {
  console.error('games-service is not compiled: run `make build` at the root first');
  process.exit(2);
}

const PATH = '/api/games/1';
const COMPRESSED = { 'accept-encoding': 'br, gzip' };
/** Each connection sends these in turn, over and over. */
const MIX: Request[] = [{ path: PATH }, { path: PATH, headers: COMPRESSED }];
const NAMES = ['ours', 'koa', 'fastify'] as const;
type Name = (typeof NAMES)[number];

// With two cores or more, the servers run on the first and the load (this process) on the
// others, as in compare-trees.ts: neither waits for the other's core.
const cores = availableParallelism();
const pinned = cores >= 2 && !values['no-pin'];
const loadCores = cores > 2 ? `1-${cores - 1}` : '1';
if (pinned) pinToCores(process.pid, loadCores);
const onServerCore = (running: RunningProcess) => {
  if (pinned) pinToCores(running.pid, '0');
  return running;
};

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
console.log(
  `${cpus()[0]?.model ?? 'unknown CPU'}, ${cores} cores, Node ${process.version}; load average ${load()}`,
);
console.log(
  pinned ? `servers on CPU 0, the load on CPU ${loadCores}` : 'servers and the load share the CPUs',
);

// Request lines: off for all three as the bench runs ours (LOG_REQUESTS=false: the loggers are
// there, at level info, writing to stdout, which the bench reads), or on for all three.
const logging = { LOG_REQUESTS: String(values['log-requests']) };
const peer = (script: string) =>
  startProcess(
    join(repoRoot, 'bench'),
    [...serviceNodeFlags('games-service'), '--import', 'tsx', `src/servers/${script}`],
    logging,
  );
const servers: Partial<Record<Name, RunningProcess>> = {};
try {
  servers.ours = onServerCore(
    await startService('games-service', { ITINERARY_SEED: 'bench', ...logging }),
  );
  servers.koa = onServerCore(await peer('peer-koa.ts'));
  servers.fastify = onServerCore(await peer('peer-fastify.ts'));
  await compare(servers as Record<Name, RunningProcess>);
} finally {
  await Promise.all(Object.values(servers).map((server) => server.stop()));
}

interface Answers {
  plain: RawResponse;
  compressed: RawResponse;
  conditional: RawResponse;
}

async function answersOf(url: string): Promise<Answers> {
  const plain = await send(url, { path: PATH });
  const compressed = await send(url, { path: PATH, headers: COMPRESSED });
  const conditional = await send(url, {
    path: PATH,
    headers: { 'if-none-match': plain.headers.etag ?? '' },
  });
  return { plain, compressed, conditional };
}

/** What is wrong with an answer, against ours: nothing, when it serves the same. */
function problems({ plain, compressed, conditional }: Answers, ours: Answers): string[] {
  const found: string[] = [];
  const { headers } = plain;
  if (plain.status !== 200) found.push(`status ${plain.status}`);
  const json = (body: Buffer) => JSON.parse(body.toString('utf8')) as unknown;
  if (!isDeepStrictEqual(json(plain.body), json(ours.plain.body))) found.push('another body');
  else if (!plain.body.equals(ours.plain.body)) found.push('the same JSON in other bytes');
  if (headers['cache-control'] !== 'public, max-age=300')
    found.push(`Cache-Control ${headers['cache-control']}`);
  if (!headers.etag?.startsWith('W/"')) found.push(`ETag ${headers.etag}`);
  if (!/(^|,)\s*accept-encoding\s*(,|$)/i.test(headers.vary ?? ''))
    found.push(`Vary ${headers.vary}`);
  if (!headers['x-request-id']) found.push('no X-Request-Id');
  if (conditional.status !== 304) found.push(`If-None-Match: ${conditional.status}, not 304`);
  if (compressed.status !== 200) found.push(`with Accept-Encoding: ${compressed.status}`);
  return found;
}

/** The size of a header block as sent (name: value CRLF), without Date and the connection's. */
function headerBytes(headers: Record<string, string | string[]>): number {
  return Object.entries(headers)
    .filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name))
    .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => [name, v]))
    .reduce((sum, [name, value]) => sum + `${name}: ${value}\r\n`.length, 0);
}

async function compare(running: Record<Name, RunningProcess>) {
  const answers = {} as Record<Name, Answers>;
  for (const name of NAMES) answers[name] = await answersOf(running[name].url);

  console.log(`\nGET ${PATH}, checked on each before loading:`);
  const wrong: string[] = [];
  for (const name of NAMES) {
    const { plain, compressed, conditional } = answers[name];
    const encoding = compressed.headers['content-encoding'];
    const found = problems(answers[name], answers.ours);
    if (found.length > 0) wrong.push(`${name}: ${found.join('; ')}`);
    console.log(
      `  ${name.padEnd(8)} ${plain.status}, body ${plain.body.length} B${name === 'ours' ? '' : found.length ? ' (see below)' : ', as ours'}; ` +
        `${Object.keys(plain.headers).length} headers (${headerBytes(plain.headers)} B); ETag ${plain.headers.etag}; ` +
        `If-None-Match: ${conditional.status}; Accept-Encoding br, gzip: ${encoding ? `${encoding}, ${compressed.body.length} B` : `not compressed, ${compressed.body.length} B`}`,
    );
  }
  if (wrong.length > 0) throw new Error(`an answer differs from ours:\n  ${wrong.join('\n  ')}`);
  const compressedBy = NAMES.filter((name) => answers[name].compressed.headers['content-encoding']);
  console.log(
    compressedBy.length === 0 && answers.ours.plain.body.length < 1024
      ? `  At ${answers.ours.plain.body.length} B the body is under each stack's compression threshold (1,024 B, ours and both peers' defaults): none compresses it: the mix's second request is answered as the first.`
      : `  Compressed by ${compressedBy.join(', ') || 'none'}: the mix's second request costs its compression there.`,
  );

  console.log(
    `\nThe mix: each of ${settings.connections} connections sends in turn GET ${PATH} and the same with ` +
      `Accept-Encoding: br, gzip; request lines ${values['log-requests'] ? 'on' : 'off'} (LOG_REQUESTS=${logging.LOG_REQUESTS}) in all three.`,
  );
  console.log(
    `${settings.rounds} rounds of ${settings.seconds} s per server, in turn (after ${settings.warmSeconds} s each to warm up); load average ${load()}`,
  );
  const contender = (name: Name) => ({
    url: running[name].url,
    request: MIX,
    cpuUs: running[name].cpuUs,
  });
  const runs = await alternate(
    { ours: contender('ours'), koa: contender('koa'), fastify: contender('fastify') },
    settings,
  );

  const cpu = (rounds: Round[]) => rounds.map((round) => round.cpuUsPerRequest ?? Number.NaN);
  const us = Object.fromEntries(NAMES.map((name) => [name, cpu(runs[name])])) as Record<
    Name,
    number[]
  >;
  const over = (peer: Name) => us.ours.map((o, i) => o / (us[peer][i] ?? Number.NaN));
  const [overKoa, overFastify] = [over('koa'), over('fastify')];
  const cell = (value: number | undefined, digits = 1) =>
    (value === undefined ? '' : value.toFixed(digits)).padStart(14);

  console.log('\nCPU µs per request (the server process: user + system, every thread)');
  console.log(
    `${'round'.padEnd(8)}${['ours', 'koa', 'fastify', 'ours/koa', 'ours/fastify'].map((h) => h.padStart(14)).join('')}`,
  );
  for (let round = 0; round < settings.rounds; round++) {
    console.log(
      String(round + 1).padEnd(8) +
        cell(us.ours[round]) +
        cell(us.koa[round]) +
        cell(us.fastify[round]) +
        cell(overKoa[round], 3) +
        cell(overFastify[round], 3),
    );
  }
  console.log(
    'median'.padEnd(8) +
      cell(median(us.ours)) +
      cell(median(us.koa)) +
      cell(median(us.fastify)) +
      cell(median(overKoa), 3) +
      cell(median(overFastify), 3),
  );
  console.log(
    "(ratios: each round's ours over the peer's, then their median; above 1, ours spends more CPU per request)",
  );

  console.log('\nreq/s, p50 / p99 ms (medians of the rounds); requests, failures, non-2xx (sums)');
  for (const name of NAMES) {
    const s = summarize(runs[name]);
    console.log(
      `  ${name.padEnd(8)} ${s.rps.toFixed(0).padStart(7)} req/s  ${s.p50Ms.toFixed(2)} / ${s.p99Ms.toFixed(2)} ms  ` +
        `${s.total} requests, ${s.failed} failed, ${s.non2xx} non-2xx`,
    );
  }
  console.log(`load average at the end ${load()}`);
  const bad = NAMES.filter((name) => {
    const s = summarize(runs[name]);
    return s.failed > 0 || s.non2xx > 0;
  });
  if (bad.length > 0) throw new Error(`failed or non-2xx answers under load: ${bad.join(', ')}`);
}
