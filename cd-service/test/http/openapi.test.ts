import { expect } from 'chai';
import { expectDocumentedApi } from 'service-kit/testing';
import { cdApi } from '../../src/app.js';
import { type Cd, maxYear } from '../../src/cd/schema.js';
import { cdRecordSchema, cdSchemas } from '../../src/cd/validate.js';
import { LIST_PARAMETERS } from '../../src/routes/params.js';
import { appEachTest } from '../fixtures.js';
import { makeCdInput, request } from '../helpers.js';
import { describeEachStore } from '../stores.js';

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
    expect(document.components.schemas.Error).to.include({ type: 'object' });
  });

  it('lists the /cds operations before the probes, the order /docs shows them in', () => {
    const paths = Object.keys(document.paths);
    expect(paths.slice(0, 2)).to.deep.equal(['/cds', '/cds/{id}']);
    expect(paths.indexOf('/healthz')).to.be.above(paths.indexOf('/cds/{id}'));
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
});

describeEachStore('GET /openapi.json and /docs', (factory) => {
  const fixture = appEachTest(factory);

  it('documents every JSON route the service has, each GET answering as documented', async () => {
    const cd: Cd = (await request(fixture.app).post('/cds').send(makeCdInput()).expect(201)).body;
    const document = await expectDocumentedApi(fixture.app, (template) =>
      template.replace('{id}', cd.id),
    );
    const routes = Object.entries(document.paths as unknown as Paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes).to.have.members([
      'GET /healthz',
      'GET /livez',
      'GET /readyz',
      'GET /cds',
      'POST /cds',
      'GET /cds/{id}',
      'PUT /cds/{id}',
      'DELETE /cds/{id}',
      'GET /openapi.json',
    ]);
    const paths = document.paths as unknown as Record<
      string,
      Record<string, { security?: unknown }>
    >;
    for (const [path, methods] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const needed = method === 'get' ? [] : [{ bearerAuth: [] }];
        expect(operation.security, `${method} ${path}`).to.deep.equal(needed);
      }
    }
    const post = (document.paths as unknown as Paths)['/cds']?.post as Op;
    for (const status of ['400', '401', '413', '415', '500'])
      expect(post.responses, status).to.have.property(status);
    const bad = await request(fixture.app)
      .head(`/cds/${cd.id.replace(/.$/, 'x')}`)
      .expect(400);
    expect(bad.headers['content-type']).to.match(/json/);
  });

  it('/docs shows the document, and its policy lets it load its stylesheet and nothing else', async () => {
    const res = await request(fixture.app).get('/docs').expect(200).expect('Content-Type', /html/);
    expect(res.text).to.include('CD Collection API reference');
    // The token is named on the three writes, not on the reads.
    expect(res.text.split('Needs <code>Authorization: Bearer')).to.have.length(4);
    expect(res.text).to.match(/href="\/assets\/styles\.css\?v=[\w-]+"/);
    const csp = res.headers['content-security-policy'] ?? '';
    expect(csp).to.include("default-src 'none'");
    expect(csp).to.include("style-src 'self'");
    expect(csp).to.include("img-src 'self' data:");
    expect(csp).to.include("frame-ancestors 'none'");
    expect(csp).to.include("form-action 'none'");
    expect(csp).to.not.include('script-src');
  });
});
