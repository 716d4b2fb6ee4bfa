import assert from 'node:assert/strict';
import type request from 'supertest';

/** What sends the requests: supertest's `request(app)`, or a Conformance's. */
export type Client = Pick<ReturnType<typeof request>, 'get'>;

/** Each `[path, same]` pair answers 200 with the same bytes: `path` is read as `same`. */
export async function expectSameAnswers(client: Client, pairs: readonly [string, string][]) {
  for (const [path, same] of pairs) {
    const expected = await client.get(same).expect(200);
    const res = await client.get(path).expect(200);
    assert.equal(res.text, expected.text, `${path} answers otherwise than ${same}`);
  }
}

/** Each `[path, value]` case answers a GET of `path` with `Cache-Control: value`. */
export async function expectCacheControl(client: Client, cases: readonly [string, string][]) {
  for (const [path, value] of cases) {
    const res = await client.get(path);
    assert.equal(res.headers['cache-control'], value, `the Cache-Control of ${path}`);
  }
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
