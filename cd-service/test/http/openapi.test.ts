import { expect } from 'chai';
import { errorBodySchema } from 'service-kit';
import {
  Conformance,
  expectDocumentedGetsAndHeads,
  expectValidOpenApiDocument,
} from 'service-kit/testing';
import { cdApi, createApp } from '../../src/app.js';
import { LIST_PARAMETERS } from '../../src/cd/query.js';
import { type Cd, maxYear } from '../../src/cd/schema.js';
import { cdRecordSchema, cdSchemas } from '../../src/cd/validate.js';
import { conformance, expectErrorBody, makeCdInput, request } from '../helpers.js';
import { describeEachStore, type StoreHandle } from '../stores.js';

type Op = {
  parameters?: { name: string; schema: unknown }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
};
type Paths = Record<string, Record<string, Op>>;

describe('the OpenAPI document', () => {
  const document = cdApi().document as {
    paths: Paths;
    components: { schemas: { Error: unknown } };
  };
  const op = (path: string, method: string) => document.paths[path]?.[method] as Op;
  const json = (holder: { content?: Record<string, { schema: unknown }> } | undefined) =>
    holder?.content?.['application/json']?.schema;

  it('is built from the very schemas the validators are compiled from', () => {
    const { create, update } = cdSchemas(maxYear());
    expect(json(op('/cds', 'post').requestBody)).to.equal(create);
    expect(json(op('/cds/{id}', 'put').requestBody)).to.equal(update);
    for (const parameter of op('/cds', 'get').parameters ?? []) {
      expect(parameter.schema, parameter.name).to.equal(
        LIST_PARAMETERS.find((p) => p.name === parameter.name)?.schema,
      );
    }
    expect(op('/cds', 'get').parameters?.map((p) => p.name)).to.have.members(
      LIST_PARAMETERS.map((p) => p.name),
    );
    expect(json(op('/cds/{id}', 'get').responses['200'])).to.equal(cdRecordSchema);
    expect(json(op('/cds', 'post').responses['201'])).to.equal(cdRecordSchema);
    expect(document.components.schemas.Error).to.equal(errorBodySchema);
  });

  it('bounds the release year of a write by the current latest year', () => {
    const schema = json(op('/cds', 'post').requestBody) as {
      properties: { releaseYear: { maximum: number } };
    };
    expect(schema.properties.releaseYear.maximum).to.equal(new Date().getUTCFullYear() + 1);
    const later = cdApi({ now: () => new Date('2040-05-01T00:00:00Z') }).document as {
      paths: Paths;
    };
    const laterSchema = later.paths['/cds']?.post?.requestBody?.content['application/json']
      ?.schema as { properties: { releaseYear: { maximum: number } } };
    expect(laterSchema.properties.releaseYear.maximum).to.equal(2041);
  });

  it('lets the response checker catch what it does not describe', () => {
    const checker = new Conformance(conformance.document, () => true);
    const headers = { 'content-type': 'application/json' };
    checker.check('get', '/cds', { status: 200, headers, body: [{ title: 'x', extra: 1 }] });
    checker.check('get', '/cds', { status: 418, headers, body: {} });
    checker.check('get', '/cds/x', { status: 400, headers, body: { error: 'x' } });
    checker.check('get', '/elsewhere', { status: 200, headers, body: {} });
    checker.check('get', '/elsewhere', { status: 404, headers, body: { error: 'x', status: 404 } });
    expect(checker.violations).to.have.length(4);
  });
});

describeEachStore('GET /openapi.json and /docs', (factory) => {
  let handle: StoreHandle;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;

  beforeEach(async () => {
    handle = await factory.open();
    app = createApp({ store: handle.store }).callback();
  });
  afterEach(() => handle.dispose());

  const create = async (): Promise<Cd> =>
    (await request(app).post('/cds').send(makeCdInput()).expect(201)).body;

  describe('GET /openapi.json', () => {
    it('is a valid OpenAPI 3.1 document', async () => {
      await expectValidOpenApiDocument(app);
    });

    it('documents every JSON route the service has', async () => {
      const { body } = await request(app).get('/openapi.json');
      const routes = Object.entries(body.paths as Paths).flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
      );
      expect(routes).to.have.members([
        'GET /healthz',
        'GET /cds',
        'POST /cds',
        'GET /cds/{id}',
        'PUT /cds/{id}',
        'DELETE /cds/{id}',
        'GET /openapi.json',
      ]);
      expect(body.paths['/cds'].post.security).to.deep.equal([{ bearerAuth: [] }]);
      for (const status of ['400', '401', '413', '415', '500'])
        expect(body.paths['/cds'].post.responses, status).to.have.property(status);
    });

    it('answers every documented GET route as documented, and HEAD alike without a body', async () => {
      const cd = await create();
      await expectDocumentedGetsAndHeads(app, conformance.document, (template) =>
        template.replace('{id}', cd.id),
      );
      await request(app).head('/docs').expect(200).expect('Content-Type', /html/);
      const bad = await request(app)
        .head(`/cds/${cd.id.replace(/.$/, 'x')}`)
        .expect(400);
      expect(bad.headers['content-type']).to.match(/json/);
    });
  });

  describe('/docs', () => {
    it('renders every operation of the document, with nothing from elsewhere', async () => {
      const res = await request(app).get('/docs').expect(200).expect('Content-Type', /html/);
      for (const [path, methods] of Object.entries(conformance.document.paths)) {
        expect(res.text).to.include(`<code>${path}</code>`);
        for (const op of Object.values(
          methods as unknown as Record<string, { operationId: string }>,
        ))
          expect(res.text).to.include(`id="${op.operationId}"`);
      }
      expect(res.text).to.include('CD Collection API reference');
      expect(res.text).to.not.match(/undefined|NaN/);
      expect(res.text).to.not.match(/<(script|link|img)[^>]+https?:/);
      expect(res.text).to.match(/href="\/assets\/styles\.css\?v=[\w-]+"/);
    });

    it('is allowed by the content security policy to load its stylesheet, and nothing else', async () => {
      const res = await request(app).get('/docs');
      const csp = res.headers['content-security-policy'] ?? '';
      expect(csp).to.include("default-src 'none'");
      expect(csp).to.include("style-src 'self'");
      expect(csp).to.include("img-src 'self' data:");
      expect(csp).to.include("frame-ancestors 'none'");
      expect(csp).to.include("form-action 'none'");
      expect(csp).to.not.include('script-src');
    });

    it('serves its assets with a content hash and caches them for good', async () => {
      const page = await request(app).get('/docs');
      const href = /href="(\/assets\/styles\.css\?v=[\w-]+)"/.exec(page.text)?.[1] ?? '';
      const css = await request(app).get(href).expect(200).expect('Content-Type', /css/);
      expect(css.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
      const stale = await request(app).get('/assets/styles.css?v=old').expect(200);
      expect(stale.headers['cache-control']).to.equal('no-cache');
      expectErrorBody(await request(app).get('/assets/nothing.css'), 404);
    });
  });
});
