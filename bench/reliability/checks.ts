import type { RawResponse } from '../src/load.js';

/**
 * Paths whose answers are JSON, errors included; dot segments (`..`, `%2e%2e`) are resolved first,
 * as the services do (`/api/x/../..` is the home page).
 */
export const isJsonRoute = (path: string) => {
  let resolved = path.split('?')[0] ?? path;
  try {
    resolved = new URL(`http://host${path}`).pathname;
  } catch {
    // not a URL the WHATWG parser takes: judged as sent
  }
  return (
    /^\/(api|cds)(\/|$)/.test(resolved) || /^\/(healthz|livez|readyz|openapi\.json)$/.test(resolved)
  );
};

/** What a server must never show: a stack frame, a source path, a module folder. */
const LEAKS = [
  /\bat [\w.<>]+ \(/,
  /\/(work|app|home|usr|tmp)\/[\w./-]+\.(ts|js)/,
  /node_modules/,
  /\.ts:\d+/,
];

/** Every way a response can break the promises of the issue; empty when it keeps them. */
export function problemsWith(method: string, path: string, res: RawResponse): string[] {
  const problems: string[] = [];
  const body = res.body.toString();
  if (res.status >= 500) problems.push(`status ${res.status}`);
  if (isJsonRoute(path) && res.status >= 400 && method !== 'HEAD') {
    try {
      const parsed = JSON.parse(body);
      if (typeof parsed.error !== 'string') problems.push('error body without a string error');
    } catch {
      problems.push(`non-JSON error (${res.headers['content-type']})`);
    }
  }
  if (
    isJsonRoute(path) &&
    res.status >= 400 &&
    !/^application\/json/.test(res.headers['content-type'] ?? '')
  ) {
    problems.push(`content-type ${res.headers['content-type']}`);
  }
  for (const leak of LEAKS) if (leak.test(body)) problems.push(`leaks ${leak}`);
  if (res.headers['x-content-type-options'] !== 'nosniff')
    problems.push('no X-Content-Type-Options');
  return problems;
}
