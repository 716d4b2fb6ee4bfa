import { hash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { answerStable } from './cache-control.js';

/** Items are written in pieces of about this many characters: a write per item costs a call each. */
const PIECE = 16 * 1024;

/** A JSON array's text, piece by piece, each item shaped and serialized only when it is read. */
function* jsonArray<T>(items: Iterable<T>, shape: (item: T) => unknown): Generator<string> {
  let piece = '[';
  let comma = '';
  for (const item of items) {
    piece += comma + (JSON.stringify(shape(item)) ?? 'null');
    comma = ',';
    if (piece.length >= PIECE) {
      yield piece;
      piece = '';
    }
  }
  yield `${piece}]`;
}

/**
 * Answers a list that grows with the data as a JSON array written while it is sent, as fast as
 * the client reads it (a stream: the app's layer neither serializes nor hashes it; the compressor
 * takes it piece by piece), `stable` as answerStable's. Its weak ETag names the data's `version`
 * and the request's path and query, so that two answers never share one; no byte is read for it.
 */
export function answerList<T>(
  ctx: Context,
  items: Iterable<T>,
  version: string,
  shape: (item: T) => unknown = (item) => item,
): void {
  const request = hash('sha1', `${ctx.path}?${ctx.querystring}`, 'base64url').slice(0, 16);
  ctx.res.setHeader('ETag', `W/"${version}.${request}"`);
  answerStable(ctx, Readable.from(jsonArray(items, shape), { objectMode: false }));
  ctx.type = 'json';
}
