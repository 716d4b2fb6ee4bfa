import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Context } from 'koa';
import { markReplayable } from './replay.js';

/** Smaller bodies are not worth compressing. */
export const COMPRESS_THRESHOLD = 1024;

type Encoding = 'br' | 'gzip';
const encoders: Record<Encoding, (body: Buffer) => Buffer> = {
  br: (body) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
  gzip: (body) => gzipSync(body, { level: 9 }),
};

/**
 * A response body serialized once, with its validator, for data that never changes.
 * Compressed variants are made on first demand and kept.
 */
export class Prepared {
  readonly etag: string;
  readonly #encoded = new Map<Encoding, Buffer>();

  constructor(
    readonly body: Buffer,
    readonly type: string,
  ) {
    this.etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  }

  get compressible(): boolean {
    return this.body.length >= COMPRESS_THRESHOLD;
  }

  encoded(encoding: Encoding): Buffer {
    let body = this.#encoded.get(encoding);
    if (!body) {
      body = encoders[encoding](this.body);
      this.#encoded.set(encoding, body);
    }
    return body;
  }
}

export const prepare = (body: string | Buffer, type: string): Prepared =>
  new Prepared(typeof body === 'string' ? Buffer.from(body) : body, type);

export const prepareJson = (value: unknown): Prepared =>
  prepare(JSON.stringify(value), 'application/json; charset=utf-8');

/**
 * Sends a prepared body in the best encoding the client accepts, or 304 when it holds it already.
 * Unless it must not be stored, the answer is marked for replay (see replay.ts).
 */
export function sendPrepared(ctx: Context, prepared: Prepared, cacheControl: string): void {
  if (!cacheControl.includes('no-store')) markReplayable(ctx);
  ctx.status = 200;
  ctx.type = prepared.type;
  ctx.set('Cache-Control', cacheControl);
  ctx.vary('Accept-Encoding');
  ctx.compress = false;
  const encoding = prepared.compressible ? ctx.acceptsEncodings('br', 'gzip', 'identity') : false;
  const chosen = encoding === 'br' || encoding === 'gzip' ? encoding : undefined;
  // Each representation has its own strong validator.
  ctx.etag = chosen ? `${prepared.etag.slice(0, -1)}-${chosen}"` : prepared.etag;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  if (chosen) ctx.set('Content-Encoding', chosen);
  ctx.body = chosen ? prepared.encoded(chosen) : prepared.body;
}
