import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
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
