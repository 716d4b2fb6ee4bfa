// Hand-written: Koa's ctx.fresh (jshttp/fresh) reads no If-Match and only loosely If-None-Match,
// and says "not fresh" whenever the request says no-cache, which speaks to caches, not to us.
import { hash } from 'node:crypto';
import type { Context } from 'koa';
import { BadRequest } from './errors.js';

/** One element of an entity-tag list, maybe empty (RFC 9110 §8.8.3, §5.6.1), then `,` or end. */
const LIST_ELEMENT = /[ \t]*(?:(W\/)?"([\x21\x23-\x7e\x80-\xff]*)")?[ \t]*(,|$)/y;

/**
 * A request's If-Match or If-None-Match: undefined, `'*'`, or its tags' values. If-Match compares
 * strongly, so its weak tags never match and are left out (RFC 9110 §13.1.1, §13.1.2).
 */
export function readEntityTags(
  ctx: Context,
  field: 'If-Match' | 'If-None-Match',
): '*' | string[] | undefined {
  const header = ctx.request.headers[field.toLowerCase()];
  if (typeof header !== 'string') return undefined;
  if (header.trim() === '*') return '*';
  const strongOnly = field === 'If-Match';
  const values: string[] = [];
  LIST_ELEMENT.lastIndex = 0;
  for (;;) {
    const element = LIST_ELEMENT.exec(header);
    if (!element) {
      // A read whose condition cannot be read is answered in full, as if it named nothing (as
      // common servers do: a client's odd cache never breaks a page); a write does not go ahead.
      if (ctx.method === 'GET' || ctx.method === 'HEAD') return [];
      throw new BadRequest(`${field} must be * or a list of quoted entity tags, such as "3", "7"`, [
        { field, message: 'is not * nor a list of entity tags' },
      ]);
    }
    const [, weak, opaque, separator] = element;
    if (opaque !== undefined && !(strongOnly && weak !== undefined)) values.push(opaque);
    if (separator === '') return values;
  }
}

const NO_STORE = /(?:^|,)\s*no-store\b/i;
/** An HTTP-date in any of its three forms: IMF-fixdate, RFC 850's, asctime's (RFC 9110 §5.6.7). */
const HTTP_DATE =
  /^(?:\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT|\w{6,9}, \d{2}-\w{3}-\d{2} \d{2}:\d{2}:\d{2} GMT|\w{3} \w{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/**
 * Whether a GET or HEAD answered 2xx may be answered 304 (RFC 9110 §13.2.2): If-None-Match `*` or
 * naming the ETag (weakly); without it, If-Modified-Since no earlier than Last-Modified. A
 * request's `Cache-Control: no-cache` changes nothing (RFC 9111 §5.2.1.4 asks it of caches).
 */
function notModified(ctx: Context): boolean {
  if (ctx.status < 200 || ctx.status > 299) return false;
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
  const tags = readEntityTags(ctx, 'If-None-Match');
  if (tags !== undefined) {
    const etag = ctx.response.get('ETag');
    return tags === '*' || (!!etag && tags.includes(etag.replace(/^W\//, '').slice(1, -1)));
  }
  const since = ctx.request.headers['if-modified-since'];
  const lastModified = ctx.response.get('Last-Modified');
  // A value that is not an HTTP-date is ignored (RFC 9110 §13.1.3): Date.parse takes `2100` too.
  if (!since || !HTTP_DATE.test(since) || !lastModified) return false;
  return Date.parse(lastModified) <= Date.parse(since);
}

/**
 * Gives a 2xx answer of text or bytes its weak ETag (a stream comes with its own), then answers 304
 * when the request's condition says the client has it. Node hashes text without a copy on the heap.
 */
export function conditionalGet(ctx: Context): void {
  if (NO_STORE.test(ctx.response.get('Cache-Control'))) return;
  const { body } = ctx;
  const size = ctx.response.length ?? 0;
  const ok = ctx.status >= 200 && ctx.status < 300 && size > 0 && !ctx.response.get('ETag');
  if (ok && (typeof body === 'string' || Buffer.isBuffer(body))) {
    // The etag package's tag, from the size Koa set and the SHA-1 (crypto.hash: no Hash object).
    const sha1 = hash('sha1', body, 'base64').slice(0, 27);
    ctx.res.setHeader('ETag', `W/"${size.toString(16)}-${sha1}"`);
  }
  if (notModified(ctx)) {
    ctx.status = 304;
    ctx.body = null;
  }
}
