import { expect } from 'chai';
import type Koa from 'koa';
import request from 'supertest';
import { fixtureService } from './fixture.js';

/** The pages' policy: what a service that names none gets. */
const PAGES_POLICY =
  "default-src 'self';img-src 'self' data:;object-src 'none';base-uri 'none';form-action 'self';frame-ancestors 'none'";

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

describe('security headers', () => {
  it('are on every answer: routes, pages, probes, the document, assets and errors', async () => {
    const { app } = fixtureService();
    const seen = await answers(app);
    expect(seen.map(([, res]) => res.status)).to.include.members([200, 404, 405, 500, 400]);
    for (const [label, { headers }] of seen) {
      expect(headers['content-security-policy'], label).to.equal(PAGES_POLICY);
      expect(headers['x-content-type-options'], label).to.equal('nosniff');
      expect(headers['x-frame-options'], label).to.equal('DENY');
      expect(headers['referrer-policy'], label).to.equal('strict-origin-when-cross-origin');
    }
  });

  it("give every answer the service's own Content-Security-Policy in place of the pages' one", async () => {
    const contentSecurityPolicy = { defaultSrc: ["'none'"], styleSrc: ["'self'"] };
    const { app } = fixtureService({ contentSecurityPolicy });
    for (const [label, { headers }] of await answers(app)) {
      expect(headers['content-security-policy'], label).to.equal(
        "default-src 'none';style-src 'self'",
      );
      expect(headers['x-content-type-options'], label).to.equal('nosniff');
    }
  });
});
