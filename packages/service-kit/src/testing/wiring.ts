import assert from 'node:assert/strict';
import type Koa from 'koa';
import request from 'supertest';
import type { Logger } from '../log.js';
import { captureLogger } from './http.js';

export interface KitWiring {
  /** The service's name, as its logs and metrics carry it. */
  service: string;
  /** The service's app, built with the kit options given. */
  app: (options: { logger?: Logger; logRequests?: boolean; metrics?: boolean }) => Koa;
  /** A GET of the service's API whose answer is over 1 KB, and its route template. */
  path: string;
  route: string;
  /** What a preflight from another origin is allowed by default; nothing when CORS is off. */
  cors?: { origin: string; methods: string };
}

/**
 * A service is built on the kit and passes its options on: an answer of its API carries the
 * caller's request id, is logged with the service's name, counted in /metrics under its route
 * template, and compressed; CORS answers as the service configures it, and `metrics: false`
 * turns /metrics off. The kit's own tests prove each of these in depth.
 */
export async function expectKitWired({ service, app, path, route, cors }: KitWiring) {
  const logger = captureLogger(service);
  const server = app({ logger, logRequests: true }).callback();
  const plain = await request(server).get(path).set('Accept-Encoding', 'identity').expect(200);
  const res = await request(server)
    .get(path)
    .set('X-Request-Id', 'kit-wired')
    .set('Accept-Encoding', 'gzip')
    .expect(200);
  assert.equal(res.headers['x-request-id'], 'kit-wired', 'X-Request-Id is not echoed');
  assert.equal(res.headers['content-encoding'], 'gzip', `${path} is not compressed`);
  assert.deepEqual(res.body, plain.body, 'the compressed answer decodes to another body');
  const line = logger.lines.find((l) => l.message === 'request' && l.requestId === 'kit-wired');
  assert.deepEqual(
    line && { service: line.service, path: line.path },
    { service, path: path.split('?')[0] },
    'no request log line with the service name, the path and the request id',
  );
  const metrics = await request(server).get('/metrics').expect(200);
  const counted = `http_request_duration_seconds_count{service="${service}",method="GET",route="${route}",status="200"} 2`;
  assert.ok(metrics.text.includes(counted), `/metrics lacks ${counted}`);
  await request(app({ metrics: false }).callback())
    .get('/metrics')
    .expect(404);
  const preflight = await request(server)
    .options(path)
    .set('Origin', 'https://elsewhere.example')
    .set('Access-Control-Request-Method', 'GET');
  assert.deepEqual(
    {
      origin: preflight.headers['access-control-allow-origin'],
      methods: preflight.headers['access-control-allow-methods'],
    },
    { origin: cors?.origin, methods: cors?.methods },
    'CORS answers otherwise than the service configures it',
  );
}
