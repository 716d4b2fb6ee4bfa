// The framework's floor: a plain Koa 3 + @koa/router app answering the service's captured
// bytes (status, headers, body) at the route's path (ROUTE_PATH), with no middleware.
import { createServer } from 'node:http';
import Router from '@koa/router';
import Koa from 'koa';
import { listen, readCaptured } from './captured.js';

const { status, headers, body } = readCaptured();
const app = new Koa();
const router = new Router().get(process.env.ROUTE_PATH ?? '/', (ctx) => {
  ctx.status = status;
  ctx.set(headers);
  ctx.body = body;
});
app.use(router.routes());
listen(createServer(app.callback()), 'koa replay');
