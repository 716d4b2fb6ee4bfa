import { hash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import pLimit from 'p-limit';

/** How long any cache (a browser, the proxy in front) may keep an answer. */
export const CACHE_CONTROL = {
  /** Never kept: an answer that differs every time (a random page) or tells the moment (health, errors, writes). */
  noStore: 'no-store',
  /** Kept, but asked again each time (with its ETag): data that a write may change at any moment. */
  revalidate: 'no-cache',
  /** Kept five minutes: data fixed while the process runs (a catalogue from its seed, the API document). */
  stable: 'public, max-age=300',
  /** Kept a day: a file whose URL does not name its version. */
  oneDay: 'public, max-age=86400',
  /** Kept for good: a URL that names its version, so that a new version has a new URL. */
  immutable: 'public, max-age=31536000, immutable',
} as const;

/** Answers `body` as data fixed while the process runs (`stable`). */
export function answerStable(ctx: Context, body: unknown): void {
  // res.setHeader throws once a route has sent the headers (ctx.set says nothing then).
  if (!ctx.res.headersSent) ctx.res.setHeader('Cache-Control', CACHE_CONTROL.stable);
  ctx.body = body;
}

/**
 * A JSON array's text in pieces of about 64 K characters. Items are serialized a batch at a time:
 * one JSON.stringify per batch costs less than one per item (bench/RESULTS.md). The batch's
 * length follows the items' size, so that a piece stays near 64 K whatever an item weighs.
 */
function* jsonArray<T>(items: Iterable<T>, shape: (item: T) => unknown): Generator<string> {
  const pieceLength = 65_536;
  let batchLength = 64;
  let batch: unknown[] = [];
  let separator = '[';
  for (const item of items) {
    batch.push(shape(item));
    if (batch.length < batchLength) continue;
    const piece = separator + JSON.stringify(batch).slice(1, -1);
    yield piece;
    separator = ',';
    batchLength = Math.max(1, Math.round((batchLength * pieceLength) / piece.length));
    batch = [];
  }
  const rest = JSON.stringify(batch).slice(1, -1);
  yield separator === '[' ? `[${rest}]` : `${rest && separator}${rest}]`;
}

/**
 * How many such lists a process writes at once; the next ones wait for a place.
 * Each costs its compressor's state (megabytes for brotli) for as long as its client reads.
 */
export const LISTS_AT_ONCE = 8;
const listPlaces = pLimit(LISTS_AT_ONCE);

/** The pieces, made once a place among the lists written at once is free; freed as they end. */
async function* inTurn(pieces: () => Iterable<string>): AsyncGenerator<string> {
  let free = () => {};
  const written = new Promise<void>((resolve) => {
    free = resolve;
  });
  await new Promise<void>((taken) => {
    void listPlaces(() => {
      taken();
      return written;
    });
  });
  try {
    yield* pieces();
  } finally {
    free();
  }
}

/** A list of at most this many items (the largest page) is answered whole, as a page is. */
export const WHOLE_LIST_MAX = 1000;

/** What `answerList` may be told besides its items. */
export interface ListOptions<T> {
  /** Each item as it is answered (the item itself by default). */
  shape?: (item: T) => unknown;
  /** How many items there are, when that is known before they are made. */
  count?: number;
}

/**
 * Answers a list that grows with the data, `stable`, as a JSON array made as fast as the client
 * reads it (see README.md), under a weak ETag of the data's `version`, the path and the query.
 * `items` is called once the list's place is free: a list that waits holds none of them.
 * A list known to hold at most WHOLE_LIST_MAX items is answered whole: it waits for no place.
 */
export function answerList<T>(
  ctx: Context,
  items: () => Iterable<T>,
  version: string,
  { shape = (item) => item, count }: ListOptions<T> = {},
): void {
  if (count !== undefined && count <= WHOLE_LIST_MAX) {
    answerStable(ctx, Array.from(items(), shape));
    return;
  }
  const request = hash('sha1', `${ctx.path}?${ctx.querystring}`, 'base64url').slice(0, 16);
  ctx.res.setHeader('ETag', `W/"${version}.${request}"`);
  answerStable(
    ctx,
    Readable.from(
      inTurn(() => jsonArray(items(), shape)),
      { objectMode: false },
    ),
  );
  ctx.type = 'json';
}
