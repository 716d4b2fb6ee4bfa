import { hash } from 'node:crypto';
import type { Context } from 'koa';
import { BadRequest, PreconditionFailed } from './errors.js';
import type { KitState } from './middleware/path.js';
import {
  type Current,
  evaluatePreconditions,
  type Preconditions,
  readPreconditions,
  type Verdict,
} from './preconditions.js';

/** The request's If-Match, If-None-Match and date preconditions, parsed on the first call only. */
export function requestPreconditions(ctx: Context): Preconditions {
  const state: KitState = ctx.state;
  state.preconditions ??= readPreconditions(ctx.request.headers);
  return state.preconditions;
}

/**
 * The request's preconditions judged against `current` (RFC 9110 §13.2.2); once a route has
 * judged them, the answer's last step does not judge them again. A header that a write cannot
 * read is a 400 here; what else the verdict calls for is the caller's.
 */
export function judgePreconditions(ctx: Context, current: Current): Verdict {
  (ctx.state as KitState).preconditionsJudged = true;
  const verdict = evaluatePreconditions(ctx.method, requestPreconditions(ctx), current);
  if (verdict.outcome === 'malformed') {
    const { field } = verdict;
    throw new BadRequest(`${field} must be * or a list of quoted entity tags, such as "3", "7"`, [
      { field, message: 'is not * nor a list of entity tags' },
    ]);
  }
  return verdict;
}

/** The words of a 412 from the answer's last step, by what failed. */
const FAILED = {
  weak: 'If-Match compares strongly and a weak tag (W/"...") never matches: send the ETag as given',
  unreadable:
    'If-Match could not be read: send * or a list of quoted entity tags, such as "3", "7"',
  changed: 'The resource has changed since the version the precondition names: read it again',
  matches: 'If-None-Match names the current version',
} as const;

const NO_STORE = /(?:^|,)\s*no-store\b/i;

/**
 * Gives a 2xx answer of text or bytes its weak ETag (a stream comes with its own), then judges
 * the request's preconditions against it, unless the route did: 304 when the client has it,
 * 412 when a precondition fails. Node hashes text without a copy on the heap.
 */
export function conditionalGet(ctx: Context): void {
  if (NO_STORE.test(ctx.response.get('Cache-Control'))) return;
  if (ctx.status < 200 || ctx.status > 299) return;
  const { body } = ctx;
  const size = ctx.response.length ?? 0;
  if (
    size > 0 &&
    !ctx.response.get('ETag') &&
    (typeof body === 'string' || Buffer.isBuffer(body))
  ) {
    // The etag package's tag, from the size Koa set and the SHA-1 (crypto.hash: no Hash object).
    const sha1 = hash('sha1', body, 'base64').slice(0, 27);
    ctx.res.setHeader('ETag', `W/"${size.toString(16)}-${sha1}"`);
  }
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return;
  if ((ctx.state as KitState).preconditionsJudged) return;
  const verdict = judgePreconditions(ctx, {
    etag: ctx.response.get('ETag') || undefined,
    lastModified: ctx.response.get('Last-Modified') || undefined,
  });
  if (verdict.outcome === 'not-modified') {
    ctx.status = 304;
    ctx.body = null;
  } else if (verdict.outcome === 'failed') {
    throw new PreconditionFailed(FAILED[verdict.reason]);
  }
}
