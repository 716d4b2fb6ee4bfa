import assert from 'node:assert/strict';
import type request from 'supertest';

/** What sends the requests: supertest's `request(app)`, or a Conformance's. */
export type Client = Pick<ReturnType<typeof request>, 'get'>;

/** Each `[path, value]` case answers a GET of `path` with `Cache-Control: value`. */
export async function expectCacheControl(client: Client, cases: readonly [string, string][]) {
  for (const [path, value] of cases) {
    const res = await client.get(path);
    assert.equal(res.headers['cache-control'], value, `the Cache-Control of ${path}`);
  }
}

/**
 * Each `[path, status]` case answers with that status and a body of ASCII only (give the app
 * ASCII data): CONTRIBUTING's "pages are ASCII text", whose one character beyond ASCII sends V8
 * and Node's hashing and writing of the whole page down their slow paths.
 */
export async function expectAsciiPages(
  client: Client,
  cases: readonly (readonly [string, number])[],
) {
  const found: string[] = [];
  for (const [path, status] of cases) {
    const { text } = await client.get(path).expect(status);
    const character = /[\u0080-\uffff]/.exec(text)?.[0];
    if (character) found.push(`${path}: ${character}`);
  }
  assert.deepEqual(found, [], 'pages with a character beyond ASCII');
}

/**
 * Each path is answered by the pages' 404 (HTML, no CORS header even for `origin`), not by
 * the JSON API: what a path in another case than its route's gets.
 */
export async function expectPagesNotFound(
  client: Client,
  paths: readonly string[],
  origin = 'https://elsewhere.example',
) {
  for (const path of paths) {
    const res = await client.get(path).set('Origin', origin);
    assert.equal(res.status, 404, `the status of ${path}`);
    assert.match(res.headers['content-type'] ?? '', /html/, `the Content-Type of ${path}`);
    assert.equal(res.headers['access-control-allow-origin'], undefined, `CORS on ${path}`);
  }
}

/** Each path (a route, an error, a page) answers with the security headers the kit sets. */
export async function expectSecurityHeaders(
  client: Client,
  paths: readonly string[],
  { defaultSrc }: { defaultSrc: string },
) {
  for (const path of paths) {
    const { headers } = await client.get(path);
    assert.equal(headers['x-content-type-options'], 'nosniff', `X-Content-Type-Options on ${path}`);
    assert.equal(headers['x-frame-options'], 'DENY', `X-Frame-Options on ${path}`);
    assert.ok(headers['referrer-policy'], `no Referrer-Policy on ${path}`);
    const policy = headers['content-security-policy'] ?? '';
    assert.ok(policy.includes(`default-src ${defaultSrc}`), `the CSP of ${path}: ${policy}`);
  }
}

/** `path` answers 200 with a weak ETag, and 304 to a request that sends that ETag back. */
export async function expectRevalidated(client: Client, path: string) {
  const { headers } = await client.get(path).expect(200);
  assert.match(headers.etag ?? '', /^W\//, `no weak ETag on ${path}`);
  await client
    .get(path)
    .set('If-None-Match', headers.etag ?? '')
    .expect(304);
}
