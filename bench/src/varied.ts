// Thousands of requests that differ in their paths, queries and headers, as real clients and
// crawlers send them: whatever a service keeps per distinct request would show in its memory.
import { randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import type { ServiceName } from './process.js';
import { seeded } from './synthetic.js';

export const VARIED_REQUESTS = 5_000;
const CONCURRENCY = 16;

type Random = () => number;
const pick = <T>(random: Random, list: readonly T[]): T =>
  list[Math.floor(random() * list.length)] as T;
const int = (random: Random, min: number, max: number) =>
  min + Math.floor(random() * (max - min + 1));
const ASCII = 'abcdefghijklmnopqrstuvwxyz0123456789-_';
const TEXT = `${ASCII}éüßø東京 `;
const word = (random: Random, chars = ASCII, max = 12) =>
  Array.from({ length: int(random, 1, max) }, () => pick(random, [...chars])).join('');
/** A query value: any text, percent-encoded; now and then a broken escape. */
const value = (random: Random) =>
  random() < 0.03 ? `%${word(random, 'xyz', 2)}` : encodeURIComponent(word(random, TEXT));

const PATHS: Record<ServiceName, ((random: Random) => string)[]> = {
  'games-service': [
    (r) => `/api/games/${int(r, -5, 400)}`,
    (r) =>
      `/api/games?q=${value(r)}&limit=${int(r, 0, 60)}&sort=${pick(r, ['title', '-rating', 'x'])}`,
    (r) => `/api/games/genre/${value(r)}?limit=${int(r, 1, 20)}`,
    (r) => `/api/games/${int(r, 1, 145)}/recommendations`,
    (r) => `/games/${int(r, 0, 200)}`,
    (r) => `/search?q=${value(r)}&page=${int(r, 1, 3)}`,
    (r) => `/games/${int(r, 1, 145)}/cover.svg?v=${word(r)}`,
    (r) => `/top-rated?${word(r)}=${value(r)}`,
    () => '/',
  ],
  'travel-service': [
    (r) => `/api/itineraries/${value(r)}`,
    (r) => `/api/itineraries/${pick(r, ['kyoto', 'paris', 'lisbon', word(r)])}/highlights`,
    (r) => `/itineraries/${pick(r, ['kyoto', 'new-york', value(r)])}`,
    (r) => `/itineraries?destination=${value(r)}`,
    (r) => `/api/itineraries?${word(r)}=${value(r)}`,
    () => '/',
  ],
  'cd-service': [
    (r) => `/cds?limit=${int(r, 0, 120)}&sort=${pick(r, ['title', '-releaseYear', 'artist', 'y'])}`,
    (r) => `/cds?artist=${value(r)}&limit=${int(r, 1, 50)}`,
    (r) => `/cds?genre=${value(r)}&before=${int(r, 1900, 2030)}`,
    () => `/cds/${randomUUID()}`,
    (r) => `/cds/${word(r)}`,
    (r) => `/cds?${word(r)}=${value(r)}`,
  ],
};
/** Paths every service has, or has not. */
const COMMON: ((random: Random) => string)[] = [
  (r) => `/${word(r)}/${value(r)}`,
  (r) => `/assets/${pick(r, ['styles.css', 'base.css', word(r)])}?v=${word(r)}`,
  () => '/healthz',
  (r) => `/openapi.json?${word(r)}`,
];

function variedHeaders(random: Random): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': `bench/${word(random)} (${word(random, ASCII, 30)})`,
    accept: pick(random, ['*/*', 'text/html', 'application/json', 'image/*', `x/${word(random)}`]),
    'accept-encoding': pick(random, ['gzip', 'br', 'gzip, deflate, br', 'identity;q=0', '*', '']),
  };
  if (random() < 0.3) headers['x-request-id'] = word(random, ASCII, 40);
  if (random() < 0.2) headers['if-none-match'] = `W/"${word(random, ASCII, 30)}"`;
  if (random() < 0.2) headers.origin = `https://${word(random)}.example`;
  if (random() < 0.2) headers['accept-language'] = pick(random, ['en', 'fr-CH, fr;q=0.9', 'ja']);
  if (random() < 0.1) headers.cookie = `session=${word(random, ASCII, 400)}`;
  if (random() < 0.3) headers[`x-${word(random)}`] = word(random, ASCII, 60);
  return headers;
}

export interface VariedResult {
  /** How many answers of each status; 0 for a request that got none. */
  statuses: Record<number, number>;
}

/** Sends `count` varied requests (a fixed seed: the same ones every run), CONCURRENCY at once. */
export async function sendVaried(
  url: string,
  service: ServiceName,
  count = VARIED_REQUESTS,
): Promise<VariedResult> {
  const random = seeded(19);
  const paths = [...PATHS[service], ...COMMON];
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const statuses: Record<number, number> = {};
  const sendOne = () =>
    new Promise<number>((resolve) => {
      const method = random() < 0.1 ? 'HEAD' : 'GET';
      httpRequest(
        url + pick(random, paths)(random),
        { agent, method, headers: variedHeaders(random) },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', () => resolve(0));
        },
      )
        .on('error', () => resolve(0))
        .end();
    });
  let sent = 0;
  const worker = async () => {
    while (sent < count) {
      sent++;
      const status = await sendOne();
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  agent.destroy();
  return { statuses };
}
