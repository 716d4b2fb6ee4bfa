// Hand-written: the maintained request-id packages do not check the id they are given, pino-http
// logs the raw URL rather than the route template, and both run inside Koa only, while answers
// kept by the response cache are sent before Koa runs.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import parseurl from 'parseurl';
import type { Registry } from 'prom-client';
import type { Logger } from './log.js';
import { requestDuration, routeOf } from './metrics.js';

const VALID_ID = /^[\w.:-]{1,128}$/;

/** The caller's X-Request-Id when it is sane, else a new one. */
export function requestIdFor(given: string | string[] | undefined): string {
  return typeof given === 'string' && VALID_ID.test(given) ? given : randomUUID();
}

/** What every request gets, whoever answers it: an id, and a record (log line, metrics). */
export interface RequestObserver {
  /** For the requests Koa answers: the id in `ctx.state.requestId` and X-Request-Id. */
  middleware: Middleware;
  /**
   * For a request answered outside Koa by `answer`, which is given the request's id to send and
   * returns the status it sent and the route template it answered for.
   */
  outsideKoa(
    req: IncomingMessage,
    answer: (requestId: string) => { status: number; route: string },
  ): void;
}

interface Answered {
  method: string;
  path: string;
  route: string;
  status: number;
  requestId: string;
  started: bigint;
}

/** Records each answer in `metrics` (by route template) and, when given, one line in `log`. */
export function requestObserver({
  log,
  metrics,
}: {
  log?: Logger | undefined;
  metrics?: Registry | undefined;
}): RequestObserver {
  const duration = metrics && requestDuration(metrics);
  const record = ({ method, path, route, status, requestId, started }: Answered) => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    duration?.observe({ method, route, status: String(status) }, seconds);
    log?.info({ method, path, status, requestId, ms: seconds * 1e3 }, 'request');
  };
  return {
    middleware: async (ctx, next) => {
      const started = process.hrtime.bigint();
      const requestId = requestIdFor(ctx.req.headers['x-request-id']);
      ctx.state.requestId = requestId;
      ctx.set('X-Request-Id', requestId);
      try {
        await next();
      } finally {
        const { method, path, status } = ctx;
        record({ method, path, route: routeOf(ctx), status, requestId, started });
      }
    },
    outsideKoa(req, answer) {
      const started = process.hrtime.bigint();
      const requestId = requestIdFor(req.headers['x-request-id']);
      const { status, route } = answer(requestId);
      const path = parseurl(req)?.pathname ?? '/';
      record({ method: req.method ?? 'GET', path, route, status, requestId, started });
    },
  };
}
