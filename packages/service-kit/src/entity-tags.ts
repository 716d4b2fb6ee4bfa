// If-Match and If-None-Match are parsed here by hand: the maintained parser (jshttp/fresh) reads
// only If-None-Match, loosely, and answers "not fresh" whenever the request says no-cache.
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
