import { request as httpRequest, type RequestOptions } from 'node:http';
import autocannon from 'autocannon';

export interface Request {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'TRACE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /**
   * For load() only, autocannon's hooks of a request in a sequence: `setupRequest` changes the
   * request with what earlier answers left in the connection's `context` (a falsy return starts
   * the sequence again), `onResponse` reads the answer. The context is emptied at each turn.
   */
  setupRequest?: (
    request: autocannon.Request,
    context: Record<string, unknown>,
  ) => autocannon.Request | undefined;
  onResponse?: (
    status: number,
    body: string,
    context: Record<string, unknown>,
    headers: Record<string, string | string[]>,
  ) => void;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** The answers of each status: how many, and their latencies (a mix tells reads from writes). */
  byStatus: Record<number, { count: number; p50Ms: number; p99Ms: number }>;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

const sortedTimes = (times: number[]) => times.sort((a, b) => a - b);

const toAutocannon = (request: Request) => ({
  method: request.method ?? 'GET',
  path: request.path,
  headers: request.body
    ? { 'content-type': 'application/json', ...request.headers }
    : request.headers,
  body: request.body,
  // Only when given: autocannon takes an undefined hook for one. Its types leave out the falsy
  // return its README documents, and type the context `object`.
  ...(request.setupRequest && {
    setupRequest: request.setupRequest as autocannon.Request['setupRequest'],
  }),
  ...(request.onResponse && {
    onResponse: request.onResponse as autocannon.Request['onResponse'],
  }),
});

/**
 * autocannon against `url`, keeping every response time itself: autocannon's own histogram
 * counts whole milliseconds, too coarse for routes that answer in a tenth of one. Given a list
 * of requests, each connection sends them in turn, over and over (a read/write mix).
 */
export async function load(
  url: string,
  request: Request | Request[],
  {
    connections = 32,
    seconds = 3,
    timeoutSeconds = 10,
  }: { connections?: number; seconds?: number; timeoutSeconds?: number } = {},
): Promise<LoadResult> {
  const times: number[] = [];
  const timesByStatus = new Map<number, number[]>();
  const requests = Array.isArray(request) ? request : [request];
  let instance: autocannon.Instance | undefined;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url,
        requests: requests.map(toAutocannon),
        connections,
        duration: seconds,
        timeout: timeoutSeconds,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
  instance?.on('response', (_client, status, _bytes, ms) => {
    times.push(ms);
    const list = timesByStatus.get(status) ?? [];
    if (list.length === 0) timesByStatus.set(status, list);
    list.push(ms);
  });
  const result = await finished;
  sortedTimes(times);
  const byStatus: LoadResult['byStatus'] = {};
  for (const [status, list] of timesByStatus) {
    sortedTimes(list);
    byStatus[status] = {
      count: list.length,
      p50Ms: percentile(list, 50),
      p99Ms: percentile(list, 99),
    };
  }
  return {
    requestsPerSecond: result.requests.total / seconds,
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    total: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    byStatus,
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** One request with node:http as it is given (no header added), the answer's body undecoded. */
export function sendRaw(
  url: string,
  { body, ...options }: RequestOptions & { body?: Buffer | string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers as Record<string, string>,
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** One request with node:http, a body sent as JSON; the answer's body undecoded. */
export function send(url: string, request: Request): Promise<RawResponse> {
  return sendRaw(url + request.path, {
    method: request.method ?? 'GET',
    headers: request.body
      ? { 'content-type': 'application/json', ...request.headers }
      : request.headers,
    body: request.body,
  });
}
