// One route on its four servers: the service, its same-work floor, the plain Koa replay and the
// bare replay, each in a process of its own, alternated.
import { writeFileSync } from 'node:fs';
import { alternate, type RunSettings, ratio, type Summary, summarize } from './compare.js';
import { send } from './load.js';
import type { RunningProcess } from './process.js';
import { comparisonServers, writeCaptured } from './replay.js';
import type { Route } from './routes.js';

export interface RouteRow {
  route: Route;
  service: Summary;
  floor: Summary;
  koa: Summary;
  bare: Summary;
  /** Median round-by-round ratios of the rates. */
  ratios: {
    serviceToFloor: number;
    serviceToKoa: number;
    serviceToBare: number;
    floorToKoa: number;
  };
  /** Whether the floor answered the service's very body (a random page cannot). */
  floorBody: 'same' | 'random' | 'differs';
  /** The plain Koa replay's resident memory after its share of the load, a baseline for the service's. */
  koaRssMb: number;
}

export async function measureRoute(
  route: Route,
  service: RunningProcess,
  serviceEnv: Record<string, string>,
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
  const starting = await Promise.allSettled([
    start.floor(route.floor, serviceEnv),
    start.koa(routePath),
    start.bare(),
  ]);
  const servers = starting.flatMap((result) =>
    result.status === 'fulfilled' ? [result.value] : [],
  );
  try {
    const failed = starting.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    const [floor, koa, bare] = servers as [RunningProcess, RunningProcess, RunningProcess];
    for (const replay of [koa, bare]) {
      const { body } = await send(replay.url, request);
      if (!body.equals(answer.body)) throw new Error(`the replay of ${route.path} differs`);
    }
    const floorAnswer = await send(floor.url, request);
    if (floorAnswer.status !== answer.status) {
      throw new Error(
        `the floor answers ${route.path} with ${floorAnswer.status}; to see why, run it alone: cd bench && CAPTURED=${captured} FLOOR=${route.floor} node --import tsx src/servers/floor.ts (with the service's environment)`,
      );
    }
    const floorBody = route.random
      ? 'random'
      : floorAnswer.body.equals(answer.body)
        ? 'same'
        : 'differs';
    if (floorBody === 'differs') {
      writeFileSync(`${captured}.service-body`, answer.body);
      writeFileSync(`${captured}.floor-body`, floorAnswer.body);
      process.stderr.write(
        `  the floor's body differs: diff ${captured}.service-body ${captured}.floor-body\n`,
      );
    }
    const runs = await alternate(
      {
        service: { url: service.url, request },
        floor: { url: floor.url, request },
        koa: { url: koa.url, request },
        bare: { url: bare.url, request },
      },
      settings,
    );
    return {
      route,
      service: summarize(runs.service),
      floor: summarize(runs.floor),
      koa: summarize(runs.koa),
      bare: summarize(runs.bare),
      ratios: {
        serviceToFloor: ratio(runs.service, runs.floor),
        serviceToKoa: ratio(runs.service, runs.koa),
        serviceToBare: ratio(runs.service, runs.bare),
        floorToKoa: ratio(runs.floor, runs.koa),
      },
      floorBody,
      koaRssMb: koa.rssMb(),
    };
  } finally {
    for (const server of servers) await server.stop();
  }
}
