// Written here rather than with koa-compress, which leaves HEAD uncompressed: a HEAD must carry its GET's Content-Encoding (RFC 9110 §9.3.2).
import { pipeline, type Readable, Stream } from 'node:stream';
import { createBrotliCompress, createGzip, constants as zlib } from 'node:zlib';
import compressible from 'compressible';
import type { Context } from 'koa';
import Negotiator from 'negotiator';

const THRESHOLD = 1024; // smaller bodies are not worth compressing
const ENCODINGS = ['br', 'gzip', 'identity'];
/** Statuses without a body, and a part of a body (Content-Range counts unencoded bytes). */
const NOT_COMPRESSED = new Set([204, 205, 206, 304]);
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

// Brotli's defaults reserve a 4 MB window per stream, for every answer in flight; our answers
// are far smaller, and a 256 KB window with the size as a hint compresses them as well. A body of
// unknown size (a list written as it is made, megabytes at most) takes the faster levels, which
// cost far less CPU for a little more bytes (bench/RESULTS.md).
const brotli = (size: number | undefined) =>
  createBrotliCompress({
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: size === undefined ? 3 : 5,
      [zlib.BROTLI_PARAM_LGWIN]: 18,
      [zlib.BROTLI_PARAM_SIZE_HINT]: size ?? 0,
    },
  });
const gzip = (size: number | undefined) =>
  createGzip({ level: size === undefined ? 3 : zlib.Z_DEFAULT_COMPRESSION });

/**
 * The encoding to send the answer in, if any. Never under a strong ETag (which names its exact
 * bytes); a client that refuses every encoding (`identity;q=0`) gets identity: better than none.
 */
function encodingOf(ctx: Context): 'br' | 'gzip' | undefined {
  const { response } = ctx;
  if (
    !ctx.body ||
    !ctx.request.headers['accept-encoding'] ||
    NOT_COMPRESSED.has(ctx.status) ||
    (response.length ?? THRESHOLD) < THRESHOLD ||
    response.get('Content-Encoding') ||
    response.get('ETag')?.startsWith('"') ||
    !compressible(response.type) ||
    NO_TRANSFORM.test(response.get('Cache-Control'))
  )
    return undefined;
  // negotiator 1.x takes a server preference for ties (its README); its types predate it.
  const negotiator = new Negotiator(ctx.req) as unknown as {
    encoding(available: readonly string[], options: object): string | undefined;
  };
  const encoding = negotiator.encoding(ENCODINGS, { preferred: ENCODINGS });
  return encoding === 'br' || encoding === 'gzip' ? encoding : undefined;
}

/**
 * Compresses the answer when it is worth it and the client takes it. A HEAD gets the compressor as
 * its body, never fed (Koa destroys it once sent): no body and no Content-Length, as its GET.
 */
export function compress(ctx: Context): void {
  const encoding = encodingOf(ctx);
  if (encoding === undefined) return;
  const { body } = ctx;
  const stream = (encoding === 'br' ? brotli : gzip)(ctx.response.length);
  ctx.set('Content-Encoding', encoding);
  ctx.remove('Content-Length');
  ctx.body = stream;
  if (ctx.method === 'HEAD') return;
  // pipeline, not pipe: a body that fails fails the compressor, which Koa then cuts (pipe would
  // leave the compressor, and the client, waiting for an end that never comes).
  if (body instanceof Stream) pipeline(body as Readable, stream, () => {});
  else stream.end(body);
}
