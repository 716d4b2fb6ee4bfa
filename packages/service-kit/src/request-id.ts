// Hand-written: the maintained Koa request-id packages do not check the id they are given.
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

const VALID = /^[\w.:-]{1,128}$/;

/** Takes the caller's X-Request-Id when it is sane, or makes one; echoes it on the response. */
export function requestId(): Middleware {
  return async (ctx, next) => {
    const given = ctx.get('X-Request-Id');
    const id = VALID.test(given) ? given : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    await next();
  };
}
