// koa-pino-logger ships no types, and @types/koa-pino-logger pins pino 6's: its one export takes
// pino-http's options (it wraps pino-http) and returns Koa middleware.
declare module 'koa-pino-logger' {
  import type { Middleware } from 'koa';
  import type { Options } from 'pino-http';

  export default function logger(options?: Options): Middleware;
}
