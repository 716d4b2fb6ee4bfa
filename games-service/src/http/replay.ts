import type { Context, Middleware } from 'koa';
import { LruCache } from '../cache.js';

interface Recorded {
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** Headers that belong to one exchange, not to the answer. */
const PER_REQUEST = new Set(['x-request-id', 'date', 'connection', 'keep-alive']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Marks the answer being built as the same for every request with this URL, encoding and origin. */
export function markReplayable(ctx: Context): void {
  ctx.state.replayable = true;
}

/**
 * Replays finished answers: the first GET of a URL (for an Accept-Encoding and an Origin) runs
 * the whole stack; if its answer was marked with markReplayable, its headers and body are kept
 * and the next identical GETs are answered from memory, skipping the middleware below this one.
 * Any write (an unsafe method) forgets everything kept, and an answer read while a write was
 * under way is not kept: exact for a process that sees every write to its data. Conditional
 * requests and HEAD always run the whole stack.
 */
export function replayAnswers(max = 2000): Middleware {
  const recorded = new LruCache<string, Recorded>(max);
  let writes = 0;
  const keyOf = (ctx: Context) =>
    ctx.method === 'GET' && !ctx.get('If-None-Match')
      ? `${ctx.url}\n${ctx.get('Accept-Encoding')}\n${ctx.get('Origin')}`
      : undefined;

  return async (ctx, next) => {
    const key = keyOf(ctx);
    const hit = key === undefined ? undefined : recorded.get(key);
    if (hit) {
      ctx.status = 200;
      ctx.set(hit.headers);
      ctx.body = hit.body;
      return;
    }
    const writesBefore = writes;
    try {
      await next();
    } finally {
      if (!SAFE_METHODS.has(ctx.method)) {
        writes++;
        recorded.clear();
      }
    }
    const body = typeof ctx.body === 'string' ? Buffer.from(ctx.body) : ctx.body;
    if (
      key !== undefined &&
      ctx.state.replayable &&
      ctx.status === 200 &&
      Buffer.isBuffer(body) &&
      writes === writesBefore
    ) {
      const headers = Object.fromEntries(
        Object.entries(ctx.response.headers).filter(([name]) => !PER_REQUEST.has(name)),
      ) as Record<string, string | string[]>;
      recorded.set(key, { headers, body });
    }
  };
}
