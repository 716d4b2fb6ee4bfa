// The same-work floor: a minimal Koa 3 + @koa/router app that does one route's work on every
// request (FLOOR: `<service>/<floor>`, see floors/) and sends the service's captured status and
// headers as they are, so that it differs from the plain Koa replay by the work alone.
import { createServer } from 'node:http';
import Router from '@koa/router';
import Koa from 'koa';
import { cdFloors } from '../floors/cd.js';
import type { FloorSet } from '../floors/floor.js';
import { gamesFloors } from '../floors/games.js';
import { travelFloors } from '../floors/travel.js';
import { listen, readCaptured } from './captured.js';

const FLOORS: Record<string, FloorSet> = {
  'games-service': gamesFloors,
  'travel-service': travelFloors,
  'cd-service': cdFloors,
};

const [service = '', name = ''] = (process.env.FLOOR ?? '').split('/');
const floorSet = FLOORS[service];
if (!floorSet) throw new Error(`FLOOR names no service with floors: ${process.env.FLOOR}`);
const captured = readCaptured();
const floor = (await floorSet(captured))[name];
if (!floor) throw new Error(`${service} has no floor named ${name}`);

const { status, headers } = captured;
const app = new Koa();
const router = new Router().get(floor.path, async (ctx) => {
  ctx.status = status;
  ctx.set(headers);
  await floor.handle(ctx);
});
app.use(router.routes());
listen(createServer(app.callback()), `floor ${process.env.FLOOR}`);
