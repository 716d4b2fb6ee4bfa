// What each layer of a service costs a request: the service under load with `node --cpu-prof`,
// its profile read by bench/bin/layer-costs.js, which gives each CPU sample to the layer
// whose code ran (its kit file or the library it uses).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { load } from './load.js';
import { repoRoot, type ServiceName, startService } from './process.js';

export interface LayerCosts {
  service: ServiceName;
  path: string;
  /** The requests answered while the profile ran, which the CPU time is divided by. */
  requests: number;
  /** bin/layer-costs.js's table: each layer's µs per request and share of the busy CPU time. */
  table: string;
}

export async function profileLayers(
  service: ServiceName,
  path: string,
  env: Record<string, string>,
  { seconds, connections }: { seconds: number; connections: number },
  dir: string,
): Promise<LayerCosts> {
  const profiles = mkdtempSync(join(dir, 'cpu-profile-'));
  const running = await startService(service, env, ['--cpu-prof', `--cpu-prof-dir=${profiles}`]);
  let requests = 0;
  try {
    const result = await load(running.url, { path }, { seconds, connections });
    requests = result.total;
  } finally {
    // Node writes the profile as the process exits: a graceful stop, not SIGKILL.
    await running.stop();
  }
  const profile = readdirSync(profiles).find((name) => name.endsWith('.cpuprofile'));
  if (!profile) throw new Error(`${service} wrote no CPU profile in ${profiles}`);
  const table = execFileSync(process.execPath, [
    join(repoRoot, 'bench', 'bin', 'layer-costs.js'),
    join(profiles, profile),
    String(requests),
  ]).toString();
  return { service, path, requests, table: table.trim() };
}
