import { Agent, request } from 'node:http';
import { expect } from 'chai';
import fc from 'fast-check';
import type { RawResponse } from '../src/load.js';
import { type RunningProcess, type ServiceName, startService } from '../src/process.js';
import { problemsWith } from './checks.js';
import { cdDatabase, freshCdFile, invalidStoredCds } from './cd-store.js';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 5000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);

const PREFIXES: Record<ServiceName, string[]> = {
  'games-service': ['/api/games', '/api/games/top-rated', '/api/games/genre', '/api/games/1', '/games', '/', '/top-rated', '/docs', '/assets'],
  'travel-service': ['/api/itineraries', '/api/itineraries/kyoto', '/itineraries', '/itineraries/new-york', '/', '/docs', '/assets'],
  'cd-service': ['/cds', '/cds/00000000-0000-4000-8000-000000000000', '/healthz', '/openapi.json', '/docs'],
};

const segment = fc.oneof(
  fc.constantFrom('..', '.', '', '%', '%E0%A4%A', '%ff', '%00', '%2e%2e', '%2F', '<script>', 'top-rated', 'genre', 'x'.repeat(300), '__proto__', 'constructor', '0', '-1', '1e9', 'null', '%20New%20York'),
  fc.stringMatching(/^[\w%.~!$&'()*+,;=:@<>"{}|\\^`-]{0,40}$/),
  fc.integer({ min: -5, max: 2 ** 53 + 10 }).map(String),
);
const query = fc.oneof(
  fc.constant(''),
  fc.constantFrom('?limit=0', '?limit=1&limit=2', '?before=abc', '?fields=bogus', '?sort=__proto__', `?artist=${'a'.repeat(5000)}`, '?%=%', '?a[b]=c', '?artist=%E0%A4%A', '?offset=-1', '?limit=1e3', '?destination=%3Cb%3E'),
  fc.array(fc.tuple(fc.constantFrom('artist', 'genre', 'limit', 'offset', 'sort', 'fields', 'before', 'destination', 'x', ''), fc.string({ maxLength: 20 })), { maxLength: 8 })
    .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`),
);
const body = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 3 }),
  fc.constantFrom('{', '{"title":', '[]', 'null', '"x"', '42', '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"x":1}}}', '{"title":"a","artist":"b","genre":"c","releaseYear":1999,"id":"x"}', '{"title":"<script>alert(1)</script>","artist":"b","genre":"c","releaseYear":1999}', '{"title":"  ","artist":"b","genre":"c","releaseYear":1999}', '{"title":"a","artist":"b","genre":"c","releaseYear":1799.5}'),
  fc.record({ title: fc.string(), artist: fc.string(), genre: fc.string(), releaseYear: fc.oneof(fc.integer(), fc.double(), fc.string()) }).map((cd) => JSON.stringify(cd)),
  fc.constant(JSON.stringify({ title: 'x'.repeat(200_000) })),
);

function arbitraryRequest(service: ServiceName) {
  return fc.record({
    method: fc.constantFrom('GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'),
    path: fc.tuple(fc.constantFrom(...PREFIXES[service]), fc.array(segment, { maxLength: 3 }), query).map(
      ([prefix, segments, q]) => `${prefix}${segments.map((s) => `/${s}`).join('')}${q}`,
    ),
    body,
    contentType: fc.constantFrom('application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', ''),
    repeatedHeader: fc.boolean(),
  });
}

type Generated = ReturnType<typeof arbitraryRequest> extends fc.Arbitrary<infer T> ? T : never;

function send(url: string, agent: Agent, r: Generated): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[]> = {};
    if (r.contentType) headers['content-type'] = r.contentType;
    if (r.repeatedHeader) headers['x-request-id'] = ['a', 'b'];
    // Node frames a GET or DELETE body only when told its length.
    if (r.body !== undefined) headers['content-length'] = String(Buffer.byteLength(r.body));
    const req = request(url + r.path, { method: r.method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(r.body);
  });
}

for (const name of ['games-service', 'travel-service', 'cd-service'] as const) {
  describe(`fuzzing ${name} with ${REQUESTS} generated requests (seed ${SEED})`, function () {
    this.timeout(300_000);
    let service: RunningProcess;
    const dbFile = freshCdFile();

    before(async () => {
      service = await startService(name, { CD_DB_PATH: dbFile, CD_SEED: 'true', ITINERARY_SEED: 'fuzz' });
    });
    after(() => service?.stop());

    it('never answers 5xx, JSON routes always answer the error body, nothing leaks, the process stays up', async () => {
      const requests = fc.sample(arbitraryRequest(name), { numRuns: REQUESTS, seed: SEED });
      const agent = new Agent({ keepAlive: true, maxSockets: 16 });
      const problems: string[] = [];
      let next = 0;
      const worker = async () => {
        while (next < requests.length) {
          const r = requests[next++] as Generated;
          let res: RawResponse;
          try {
            res = await send(service.url, agent, r);
          } catch (error) {
            problems.push(`${r.method} ${r.path.slice(0, 120)} body ${String(r.body).length} B ${r.contentType}: ${(error as Error).message}`);
            continue;
          }
          for (const problem of problemsWith(r.method, r.path, res)) {
            if (problems.length < 20) problems.push(`${r.method} ${r.path.slice(0, 120)} -> ${res.status}: ${problem}`);
          }
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
      agent.destroy();
      expect(problems).to.deep.equal([]);
      expect(service.exited()).to.equal(false);
      const health = await fetch(`${service.url}/healthz`);
      expect(health.status).to.equal(200);
    });

    if (name === 'cd-service') {
      it('stored no invalid record', async () => {
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
