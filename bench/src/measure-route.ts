// One route on its three servers: the service, plain Koa replaying its bytes and a bare
// node:http replay, each in a process of its own, alternated.
import { alternate, type RunSettings, ratio, type Summary, summarize } from './compare.js';
import { send } from './load.js';
import type { RunningProcess } from './process.js';
import { comparisonServers, writeCaptured } from './replay.js';
import type { Route } from './routes.js';

export interface RouteRow {
  route: Route;
  service: Summary;
  koa: Summary;
  bare: Summary;
  /** Median round-by-round ratios of the rates. */
  ratios: {
    serviceToKoa: number;
    serviceToBare: number;
  };
  /** The plain Koa replay's resident memory after its share of the load, a baseline for the service's. */
  koaRssMb: number;
}

export async function measureRoute(
  route: Route,
  service: RunningProcess,
  settings: RunSettings,
  dir: string,
): Promise<RouteRow> {
  const request = { path: route.path };
  const answer = await send(service.url, request);
  if (answer.status !== 200) {
    throw new Error(`${route.service} answers ${route.path} with ${answer.status}`);
  }
  const captured = writeCaptured(answer, dir);
  const start = comparisonServers(route.service, captured);
  const routePath = route.path.split('?')[0] ?? '/';
  // Started together; whichever started is stopped at the end, even when another failed.
  const starting = await Promise.allSettled([start.koa(routePath), start.bare()]);
  const servers = starting.flatMap((result) =>
    result.status === 'fulfilled' ? [result.value] : [],
  );
  try {
    const failed = starting.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    const [koa, bare] = servers as [RunningProcess, RunningProcess];
    for (const replay of [koa, bare]) {
      const { body } = await send(replay.url, request);
      if (!body.equals(answer.body)) throw new Error(`the replay of ${route.path} differs`);
    }
    const runs = await alternate(
      {
        service: { url: service.url, request },
        koa: { url: koa.url, request },
        bare: { url: bare.url, request },
      },
      settings,
    );
    return {
      route,
      service: summarize(runs.service),
      koa: summarize(runs.koa),
      bare: summarize(runs.bare),
      ratios: {
        serviceToKoa: ratio(runs.service, runs.koa),
        serviceToBare: ratio(runs.service, runs.bare),
      },
      koaRssMb: koa.rssMb(),
    };
  } finally {
    for (const server of servers) await server.stop();
  }
}
