import { isIPv6 } from 'node:net';
import type Koa from 'koa';
import type { Middleware } from 'koa';
import { BadRequest } from '../errors.js';

/**
 * RFC 3986's host[:port], as RFC 9112 section 3.2 asks of Host: a reg-name (an IPv4 address is
 * one), or an IP literal in brackets, then an optional port of digits.
 */
const HOST =
  /^(?:\[(?:[0-9A-Fa-f:.]+|v[0-9A-Fa-f]+\.[\w.~!$&'()*+,;=:-]+)\]|[\w.~!$&'()*+,;=%-]+)(?::[0-9]*)?$/;
/** A `%` that does not start two hexadecimal digits. */
const BROKEN_PERCENT = /%(?![0-9A-Fa-f]{2})/;

/** Whether a Host value is host[:port]; an IP literal other than IPvFuture must be IPv6. */
function validHost(host: string): boolean {
  if (!HOST.test(host) || (host.includes('%') && BROKEN_PERCENT.test(host))) return false;
  if (host.charCodeAt(0) !== 91 || host[1] === 'v') return true;
  return isIPv6(host.slice(1, host.lastIndexOf(']')));
}

/** 400 for what Node lets through but no route can answer; a broken query Koa would keep as raw text. */
export const wellFormed: Middleware = (ctx, next) => {
  const { host } = ctx.req.headers;
  if (host) {
    if (!validHost(host)) throw new BadRequest('The Host header is not a valid host[:port]');
    // Node keeps the first of several Host headers (`req.headers.host`); the raw ones tell.
    const raw = ctx.req.rawHeaders;
    let hosts = 0;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i] as string;
      if (name.length === 4 && (name === 'Host' || name === 'host' || /^host$/i.test(name)))
        hosts++;
    }
    if (hosts > 1) throw new BadRequest('A request may have only one Host header');
  } else if (ctx.req.httpVersion === '1.1') {
    throw new BadRequest('An HTTP/1.1 request needs a Host header');
  }
  const query = ctx.querystring;
  if (query.includes('%')) {
    for (const part of query.split('&')) {
      try {
        decodeURIComponent(part);
      } catch {
        const field = part.split('=')[0] ?? part;
        throw new BadRequest(`The query parameter ${field} is not valid percent-encoding`, [
          { field, message: 'is not valid percent-encoding' },
        ]);
      }
    }
  }
  return next();
};

/**
 * Koa's `ctx.query` scans the whole query once per name (`getAll`), a cost that grows with the
 * square of the names (bench/RESULTS.md): this one reads the same object (a repeated name, an
 * array) in one pass.
 */
export function readQueryInOnePass(app: Koa): void {
  const koas = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(app.request), 'query');
  Object.defineProperty(app.request, 'query', { ...koas, get: readQuery });
}

function readQuery(this: Koa.Request): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  new URLSearchParams(this.querystring).forEach((value, name) => {
    const given = Object.hasOwn(query, name) ? query[name] : undefined;
    if (Array.isArray(given)) given.push(value);
    else {
      const read = given === undefined ? value : [given, value];
      // Defined, so that `__proto__` is a name like any other.
      if (name === '__proto__') Object.defineProperty(query, name, { ...OWN, value: read });
      else query[name] = read;
    }
  });
  return query;
}
const OWN = { writable: true, enumerable: true, configurable: true };
