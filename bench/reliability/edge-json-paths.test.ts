import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { EXPOSED_HEADERS } from '../../packages/service-kit/src/api-headers.js';
import { API_SECURITY_HEADERS } from '../../packages/service-kit/src/middleware/security-headers.js';
import { send } from '../src/load.js';
import { type RunningProcess, repoRoot, type ServiceName, startService } from '../src/process.js';
import { freshCdFile } from './cd-store.js';

// Which paths are answered with JSON is each service's rule (its JSON paths and the kit's own);
// the edge keeps a copy, `api_path` in proxy/haproxy.cfg, for the errors it answers itself. This
// checks the copy against the services, path by path, by the kind of error each one answers.
const FRONTENDS: Record<ServiceName, string> = {
  'games-service': 'games',
  'travel-service': 'travel',
  'cd-service': 'cd',
};

/** Each frontend's `api_path` regex, as the edge's configuration states it. */
function edgeApiPath(frontend: string): RegExp {
  const config = readFileSync(join(repoRoot, 'proxy', 'haproxy.cfg'), 'utf8');
  const section = config.split(/^frontend /m).find((part) => part.startsWith(`${frontend} `));
  const pattern = /acl api_path path -m reg '([^']+)'/.exec(section ?? '')?.[1];
  if (!pattern) throw new Error(`no api_path in frontend ${frontend} of proxy/haproxy.cfg`);
  return new RegExp(pattern);
}

/** The paths to try: each prefix either side names, below it, and a near miss of it. */
function candidates(edge: RegExp): string[] {
  const prefixes = /\^\/\(([^)]+)\)/.exec(edge.source)?.[1]?.replace(/\\\./g, '.').split('|') ?? [];
  const named = [
    'api',
    'cds',
    'healthz',
    'livez',
    'readyz',
    'metrics',
    'openapi.json',
    'docs',
    'assets',
  ];
  return ['/', '/nope', ...new Set([...prefixes, ...named])].flatMap((name) =>
    name === '/' || name === '/nope' ? [name] : [`/${name}`, `/${name}/x`, `/${name}x`],
  );
}

/** The headers the edge sets on the answers it writes itself, as proxy/haproxy.cfg states them. */
function edgeOwnHeaders(): Map<string, string> {
  const config = readFileSync(join(repoRoot, 'proxy', 'haproxy.cfg'), 'utf8');
  const rule =
    /^ *http-after-response set-header (\S+) ("[^"]*"|\S+) unless \{ var\(txn\.service_answer\) -m bool \}$/gm;
  const headers = new Map<string, string>();
  for (const [, name, value] of config.matchAll(rule)) {
    headers.set(name!, value!.replace(/^"(.*)"$/, '$1'));
  }
  return headers;
}

// The edge's own answers (its errors and 405s) carry a copy of the services' JSON security headers
// and CORS for any origin: the copy is checked against the kit's lists.
describe("the edge's own answers", () => {
  const headers = edgeOwnHeaders();

  it("carry the kit's security headers of a JSON answer, with their values", () => {
    const security = [...headers].filter(([name]) => !/^access-control-/i.test(name));
    expect(security).to.deep.equal(API_SECURITY_HEADERS.map(([name, value]) => [name, value]));
  });

  it('may be read by a script of any origin, with the headers they carry', () => {
    expect(headers.get('Access-Control-Allow-Origin')).to.equal('*');
    const exposed = headers.get('Access-Control-Expose-Headers')?.split(',') ?? [];
    // The edge's own: Allow (its 405s), RateLimit and RateLimit-Policy (its per-client limits).
    const edgeOwn = ['Allow', 'RateLimit', 'RateLimit-Policy'];
    expect(exposed).to.have.members(['X-Request-Id', 'Retry-After', ...edgeOwn]);
    expect(EXPOSED_HEADERS).to.include.members(exposed.filter((name) => !edgeOwn.includes(name)));
  });
});

for (const name of ['games-service', 'travel-service', 'cd-service'] as const) {
  describe(`the edge's JSON paths for ${name}`, () => {
    let service: RunningProcess;
    before(async () => {
      service = await startService(name, { CD_DB_PATH: freshCdFile(), ITINERARY_SEED: 'paths' });
    });
    after(() => service?.stop());

    it("are the paths whose errors the service answers in JSON (proxy/haproxy.cfg's api_path)", async () => {
      const edge = edgeApiPath(FRONTENDS[name]);
      const disagree: string[] = [];
      for (const path of candidates(edge)) {
        // TRACE is an error on every path: its body is of the path's kind.
        const res = await send(service.url, { method: 'TRACE', path });
        const json = /^application\/json/.test(String(res.headers['content-type']));
        if (json !== edge.test(path)) disagree.push(`${path}: service ${json ? 'JSON' : 'page'}`);
      }
      expect(disagree).to.deep.equal([]);
    });
  });
}
