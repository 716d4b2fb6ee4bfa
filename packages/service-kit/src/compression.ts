import { constants as zlib } from 'node:zlib';
import type { Middleware } from 'koa';
import compress from 'koa-compress';
import Negotiator from 'negotiator';

/** The encodings the services send, best first. */
const ENCODINGS = ['br', 'gzip', 'identity'];

const compressed = compress({
  // Smaller bodies are not worth compressing.
  threshold: 1024,
  // Brotli's defaults reserve a 4 MB window per stream, for every answer in flight; our answers
  // are far smaller, and a 256 KB window with the size as a hint compresses them as well.
  br: (_type: string, size: number) => ({
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: 5,
      [zlib.BROTLI_PARAM_LGWIN]: 18,
      ...(size > 0 && { [zlib.BROTLI_PARAM_SIZE_HINT]: size }),
    },
  }),
  deflate: false,
  zstd: false,
});

/**
 * Compression of answers over 1 KB, in brotli or gzip as the client prefers (koa-compress).
 * Left to itself, koa-compress answers a client that refuses every encoding it has, identity
 * included (`identity;q=0`), with `Content-Encoding: undefined`, which Node refuses with a 500:
 * a request that weighs its encodings (`q=`) is told the best one it takes, else identity (an
 * answer without encoding beats none at all).
 */
export const compression: Middleware = (ctx, next) => {
  const accepted = ctx.request.headers['accept-encoding'];
  if (!accepted) {
    // No encoding asked for: koa-compress would only name the header the answer varies on.
    ctx.vary('Accept-Encoding');
    return next();
  }
  if (accepted.includes('q=')) {
    // negotiator 1.x takes a server preference for ties; its types predate it.
    const negotiator = new Negotiator(ctx.req) as unknown as {
      encoding(available: readonly string[], options: object): string | undefined;
    };
    ctx.request.headers['accept-encoding'] =
      negotiator.encoding(ENCODINGS, { preferred: ENCODINGS }) ?? 'identity';
  }
  return compressed(ctx, next);
};
