import { expect } from 'chai';
import Koa from 'koa';
import { Conformance } from '../../src/testing/conformance.js';
import { expectDocumentedApi } from '../../src/testing/openapi.js';
import { fixtureService } from '../fixture.js';

const rejects = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
};

describe('OpenAPI test helpers', () => {
  const server = fixtureService({}, { failing: false }).app.callback();
  const sized = (template: string) => template.replace('{size}', '2');

  it('pass on a service whose document is valid and whose routes answer as documented', async () => {
    const document = await expectDocumentedApi(server, sized);
    expect(document.paths).to.include.keys('/api/items', '/openapi.json', '/healthz');
  });

  it('fail on an invalid document, and on a documented route that does not answer', async () => {
    const broken = new Koa().use((ctx) => {
      ctx.body = { openapi: '3.1.0', info: {}, paths: 5 };
    });
    expect((await rejects(expectDocumentedApi(broken.callback(), sized))).message).to.match(
      /not valid OpenAPI/,
    );
    const failure = await rejects(
      expectDocumentedApi(server, (template) => template.replace('{size}', '0')),
    );
    expect(failure.message).to.match(/\/api\/big\/0/);
  });

  it('fail on a valid document that leaves a client to guess', async () => {
    const vague = new Koa().use((ctx) => {
      ctx.body = {
        openapi: '3.1.0',
        info: { title: 'T', version: '1' },
        paths: {
          '/api/x': {
            get: {
              parameters: [{ name: 'n', in: 'query', schema: { type: 'integer' } }],
              responses: {
                200: {
                  description: 'X',
                  content: { 'application/json': { schema: { enum: ['a', 'b'] } } },
                },
              },
            },
            post: { security: [{ apiKey: [] }], responses: { 204: { description: 'Done' } } },
          },
        },
        components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
      };
    });
    const { message } = await rejects(expectDocumentedApi(vague.callback(), sized));
    expect(message).to.equal(
      '/openapi.json: no servers entry; ' +
        'an enum or const without a type at #/paths/~1api~1x/get/responses/200/content/application~1json/schema; ' +
        'GET /api/x: the integer parameter n states no maximum; ' +
        'GET /api/x: no security (`[]` when it needs none); ' +
        'POST /api/x: the security scheme apiKey is not defined',
    );
  });

  it('fail on a HEAD whose headers differ from its GET', async () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 'T', version: '1' },
      servers: [{ url: '/' }],
      paths: { '/api/x': { get: { responses: { 200: { description: 'X' } } } } },
    };
    const apart = new Koa().use((ctx) => {
      if (ctx.path === '/openapi.json') ctx.body = document;
      else {
        if (ctx.method === 'GET') ctx.set('Vary', 'Accept-Encoding');
        ctx.body = { x: 1 };
      }
    });
    const { message } = await rejects(expectDocumentedApi(apart.callback(), sized));
    expect(message).to.match(/^\/api\/x: HEAD's vary is not GET's/);
  });

  it('catch a response the document does not describe', () => {
    const { conformance } = fixtureService();
    const checker = new Conformance(conformance.document, () => true);
    const headers = { 'content-type': 'application/json' };
    checker.check('get', '/api/items', { status: 200, headers, body: [{ id: 'x', name: 1 }] });
    checker.check('get', '/api/items', { status: 418, headers, body: {} });
    checker.check('get', '/api/items/x', { status: 400, headers, body: { error: 'x' } });
    checker.check('get', '/elsewhere', { status: 200, headers, body: {} });
    checker.check('get', '/elsewhere', { status: 404, headers, body: { error: 'x', status: 404 } });
    expect(checker.violations).to.have.length(4);
  });
});
