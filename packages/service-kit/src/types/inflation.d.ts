// inflation's own README documents `encoding`; @types/inflation names that option `gzip`.
declare module 'inflation' {
  import type { Readable } from 'node:stream';
  import type { BrotliOptions } from 'node:zlib';

  /** A stream of the body decompressed as `encoding` (else its Content-Encoding) says. */
  export default function inflate(
    stream: Readable,
    options?: { encoding?: string; brotli?: BrotliOptions },
  ): Readable;
}
