import type { Context } from 'koa';

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
