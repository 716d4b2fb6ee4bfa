import { request as httpRequest } from 'node:http';
import autocannon from 'autocannon';

export interface Request {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/**
 * autocannon against `url`, keeping every response time itself: autocannon's own histogram
 * counts whole milliseconds, too coarse for routes that answer in a tenth of one.
 */
export async function load(
  url: string,
  request: Request,
  { connections = 32, seconds = 3 }: { connections?: number; seconds?: number } = {},
): Promise<LoadResult> {
  const times: number[] = [];
  let instance: autocannon.Instance | undefined;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: url + request.path,
        method: request.method ?? 'GET',
        headers: request.body
          ? { 'content-type': 'application/json', ...request.headers }
          : request.headers,
        body: request.body,
        connections,
        duration: seconds,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
  instance?.on('response', (_client, _status, _bytes, ms) => {
    times.push(ms);
  });
  const result = await finished;
  times.sort((a, b) => a - b);
  return {
    requestsPerSecond: result.requests.total / seconds,
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    total: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** One request with node:http, body undecoded. */
export function send(url: string, request: Request): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url + request.path,
      {
        method: request.method ?? 'GET',
        headers: request.body
          ? { 'content-type': 'application/json', ...request.headers }
          : request.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers as Record<string, string>,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

/**
 * The median time of `count` requests sent one after another on one keep-alive connection:
 * the latency of a route without queueing, precise to microseconds.
 */
export async function sequentialP50(
  url: string,
  request: Request | (() => Request),
  count = 2000,
): Promise<number> {
  const next = typeof request === 'function' ? request : () => request;
  const agent = new (await import('node:http')).Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await new Promise<void>((resolve, reject) => {
      const { path, method = 'GET' } = next();
      httpRequest(url + path, { agent, method }, (res) => {
        res.resume();
        res.on('end', resolve);
      })
        .on('error', reject)
        .end();
    });
    times.push(performance.now() - start);
  }
  agent.destroy();
  return percentile(
    times.sort((a, b) => a - b),
    50,
  );
}
