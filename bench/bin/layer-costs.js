#!/usr/bin/env node
// layer-costs PROFILE.cpuprofile REQUESTS: the CPU time of each request layer, in µs per request,
// from a `node --cpu-prof` profile of a service under load. Each sample goes to the first frame,
// from the leaf up, that belongs to a layer (its file in the kit, or the library it uses);
// Koa's own code and Node's are skipped on the way up, so that a header a layer sets counts
// for that layer. What no layer claims is the framework (Koa, node:http) or outside requests.
import { readFileSync } from 'node:fs';

const LAYERS = [
  ['request record (id, metrics, log, GET /metrics)', /service-kit\/dist\/middleware\/request-record\.js|service-kit\/dist\/metrics\.js|\/prom-client\/|\/pino\//],
  ['errors', /service-kit\/dist\/middleware\/errors\.js/],
  ['well-formed request', /service-kit\/dist\/middleware\/well-formed\.js/],
  ['CORS', /service-kit\/dist\/middleware\/cors\.js|\/@koa\/cors\//],
  ['security headers', /service-kit\/dist\/middleware\/security-headers\.js/],
  ['compression', /service-kit\/dist\/compression\.js|\/negotiator\/|\/compressible\/|\/mime-db\//],
  ['conditional GET + weak ETag', /service-kit\/dist\/conditional-get\.js/],
  ['the answer\'s finish (JSON serialization) and the path', /service-kit\/dist\/middleware\/(finish|path)\.js/],
  ['assets (sending the file)', /\/@koa\/send\//],
  ['pages (koa-views, the assets\' lookup)', /service-kit\/dist\/(pages|assets|compiled-views)\.js|\/koa-views\/|\/get-paths\/|\/pify\/|\/resolve-path\/|service-kit\/dist\/formatting\.js/],
  ['template rendering', /dist\/views\.js|\/pug-runtime\//],
  ['routing (@koa/router)', /service-kit\/dist\/routing\.js|\/@koa\/router\/|\/koa-compose\/|\/path-to-regexp\//],
  ['the route (domain, store)', /-service\/dist\//],
  ['Koa', /\/koa\/|\/koa-[a-z-]+\/|\/on-finished\/|\/statuses\/|\/vary\/|\/type-is\/|\/mime-types\/|\/content-type\/|\/accepts\/|\/cache-content-type\/|\/parseurl\//],
  ['node:http and the event loop', /^node:/],
];

const [file, requests] = process.argv.slice(2);
if (!file || !requests) {
  console.error('usage: layer-costs PROFILE.cpuprofile REQUESTS');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const own = (url) => LAYERS.slice(0, -2).findIndex(([, pattern]) => pattern.test(url));
const fallback = (url) => LAYERS.slice(-2).findIndex(([, pattern]) => pattern.test(url));
const bucketOf = new Map();
function bucket(id) {
  if (bucketOf.has(id)) return bucketOf.get(id);
  let result = 'outside requests (idle, GC, program)';
  let framework;
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const { url, functionName } = byId.get(at).callFrame;
    const index = own(url);
    if (index >= 0) {
      result = LAYERS[index][0];
      break;
    }
    if (framework === undefined) {
      const other = fallback(url);
      if (other >= 0) framework = LAYERS[LAYERS.length - 2 + other][0];
      else if (functionName === '(garbage collector)') framework = 'garbage collection';
    }
  }
  if (result.startsWith('outside') && framework) result = framework;
  bucketOf.set(id, result);
  return result;
}

const totals = new Map();
const leaves = new Map();
let all = 0;
profile.samples.forEach((id, i) => {
  const us = profile.timeDeltas[i] ?? 0;
  const { functionName, url, lineNumber } = byId.get(id).callFrame;
  const key = functionName === '(idle)' ? 'idle' : bucket(id);
  totals.set(key, (totals.get(key) ?? 0) + us);
  const leaf = `${key} :: ${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
  leaves.set(leaf, (leaves.get(leaf) ?? 0) + us);
  all += us;
});
if (process.env.DETAIL) {
  for (const [leaf, us] of [...leaves].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.DETAIL))) {
    console.log(`${(us / Number(requests)).toFixed(2).padStart(7)} µs  ${leaf}`);
  }
}
const busy = all - (totals.get('idle') ?? 0);
console.log(`| layer | µs per request | share of busy CPU |`);
console.log(`|---|---:|---:|`);
for (const [key, us] of [...totals].sort((a, b) => b[1] - a[1])) {
  if (key === 'idle') continue;
  console.log(`| ${key} | ${(us / Number(requests)).toFixed(1)} | ${((100 * us) / busy).toFixed(1)} % |`);
}
console.log(`| all busy time | ${(busy / Number(requests)).toFixed(1)} | |`);
