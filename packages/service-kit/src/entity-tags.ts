// If-Match is parsed here by hand: the maintained parsers (jshttp/fresh) read only If-None-Match.
import type { Context } from 'koa';
import { BadRequest } from './errors.js';

/**
 * One element of an entity-tag list (RFC 9110 §8.8.3, §5.6.1): optional weak prefix, the
 * quoted opaque value (any visible character but `"`), then a comma or the end. Empty
 * elements (`a, , b`) are allowed, as the list rule says.
 */
const LIST_ELEMENT = /[ \t]*(?:(W\/)?"([\x21\x23-\x7e\x80-\xff]*)")?[ \t]*(,|$)/y;

/**
 * Sets a strong ETag (RFC 9110 §8.8.1): it names these exact bytes, so the answer is sent as
 * it is, never compressed (a compressed body would be other bytes under the same tag). The
 * conditional-GET middleware keeps it and compares If-None-Match with it.
 */
export function setStrongEtag(ctx: Context, opaque: string): void {
  ctx.set('ETag', `"${opaque}"`);
  // koa-compress's documented switch for one answer.
  ctx.compress = false;
}

/**
 * The request's If-Match (RFC 9110 §13.1.1): undefined when absent, `'*'`, or the opaque values
 * of its strong tags. Weak tags are left out: If-Match compares strongly, so they never match.
 * A header that is not `*` nor a list of quoted tags is a 400.
 */
export function readIfMatch(ctx: Context): '*' | string[] | undefined {
  const header = ctx.request.headers['if-match'];
  if (header === undefined) return undefined;
  if (header.trim() === '*') return '*';
  const strong: string[] = [];
  LIST_ELEMENT.lastIndex = 0;
  for (;;) {
    const element = LIST_ELEMENT.exec(header);
    if (!element) {
      throw new BadRequest('If-Match must be * or a list of quoted entity tags, such as "3", "7"', [
        { field: 'If-Match', message: 'is not * nor a list of entity tags' },
      ]);
    }
    const [, weak, opaque, separator] = element;
    if (opaque !== undefined && weak === undefined) strong.push(opaque);
    if (separator === '') return strong;
  }
}
