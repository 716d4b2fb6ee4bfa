import { expect } from 'chai';
import type Koa from 'koa';
import request from 'supertest';
import { fixtureService } from './fixture.js';
import { rawExchange, servedFixture } from './raw-http.js';

/** The pages' policy: what a service that names none gets. */
const PAGES_POLICY =
  "default-src 'self';img-src 'self' data:;object-src 'none';base-uri 'none';form-action 'self';frame-ancestors 'none'";
/** A JSON answer's policy: it loads nothing and may not be framed. */
const API_POLICY = "default-src 'none';frame-ancestors 'none'";
const isJsonAnswer = (label: string) => /^\w+ \/(api|healthz|openapi\.json)/.test(label);

/** A GET of each kind of answer, a write refused, and a malformed query. */
async function answers(app: Koa): Promise<[string, request.Response][]> {
  const client = request(app.callback());
  const page = await client.get('/');
  const stylesheet = /href="(\/assets\/styles\.css\?v=[\w-]+)"/.exec(page.text)?.[1] ?? '';
  expect(stylesheet).to.not.equal('');
  const paths = [
    '/api/items',
    '/api/nope',
    '/api/boom',
    '/api/items?name=%ZZ',
    '/nope',
    '/healthz',
    '/openapi.json',
    '/docs',
    stylesheet,
  ];
  const got = await Promise.all(
    paths.map(
      async (path): Promise<[string, request.Response]> => [`GET ${path}`, await client.get(path)],
    ),
  );
  return [['GET /', page], ...got, ['DELETE /api/items', await client.delete('/api/items')]];
}

/** What every answer carries, its policy apart. */
function expectSecurityHeaders(headers: Record<string, string>, policy: string, label: string) {
  expect(headers['content-security-policy'], label).to.equal(policy);
  expect(headers['x-content-type-options'], label).to.equal('nosniff');
  expect(headers['x-frame-options'], label).to.equal('DENY');
  expect(headers['referrer-policy'], label).to.equal('strict-origin-when-cross-origin');
  expect(headers['cross-origin-resource-policy'], label).to.equal('same-origin');
}

describe('security headers', () => {
  const served = servedFixture();

  it('are on every answer: routes, pages, probes, the document, assets and errors', async () => {
    const { app } = fixtureService();
    const seen = await answers(app);
    expect(seen.map(([, res]) => res.status)).to.include.members([200, 404, 405, 500, 400]);
    for (const [label, { headers }] of seen) {
      expectSecurityHeaders(headers, isJsonAnswer(label) ? API_POLICY : PAGES_POLICY, label);
    }
  });

  it("are a JSON answer's on the errors of Node's parser, written to the socket", async () => {
    for (const request of [
      'NOT HTTP AT ALL\r\n\r\n',
      'CONNECT x:443 HTTP/1.1\r\nHost: x\r\n\r\n',
    ]) {
      const answer = await rawExchange(served.url, request);
      expect(answer, request).to.match(/^HTTP\/1\.1 40[05]/);
      const fields = [...answer.matchAll(/^([\w-]+): (.*)\r$/gm)];
      const headers = Object.fromEntries(
        fields.map(([, name, value]) => [name?.toLowerCase(), value]),
      );
      expectSecurityHeaders(headers, API_POLICY, request);
    }
  });

  it("keep a document's own headers off JSON answers", async () => {
    const { app } = fixtureService();
    for (const [label, { headers }] of await answers(app)) {
      const documentOnly = [
        headers['cross-origin-opener-policy'],
        headers['origin-agent-cluster'],
        headers['x-dns-prefetch-control'],
        headers['x-download-options'],
        headers['x-permitted-cross-domain-policies'],
        headers['x-xss-protection'],
      ];
      if (isJsonAnswer(label)) expect(documentOnly, label).to.deep.equal(Array(6).fill(undefined));
      else expect(headers['cross-origin-opener-policy'], label).to.equal('same-origin');
    }
  });

  it("give every page the service's own Content-Security-Policy in place of the pages' one", async () => {
    const contentSecurityPolicy = { defaultSrc: ["'none'"], styleSrc: ["'self'"] };
    const { app } = fixtureService({ contentSecurityPolicy });
    for (const [label, { headers }] of await answers(app)) {
      expect(headers['content-security-policy'], label).to.equal(
        isJsonAnswer(label) ? API_POLICY : "default-src 'none';style-src 'self'",
      );
      expect(headers['x-content-type-options'], label).to.equal('nosniff');
    }
  });
});
