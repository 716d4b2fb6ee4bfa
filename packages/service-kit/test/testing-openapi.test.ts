import { expect } from 'chai';
import Koa from 'koa';
import {
  expectDocumentedGetsAndHeads,
  expectValidOpenApiDocument,
} from '../src/testing/openapi.js';
import { fixtureService } from './fixture.js';

const rejects = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
};

describe('OpenAPI test helpers', () => {
  const server = fixtureService().app.callback();

  it('pass on a service whose document is valid and whose routes answer as documented', async () => {
    const document = await expectValidOpenApiDocument(server);
    const paths = { '/api/items': {}, '/openapi.json': {} };
    expect(document.paths).to.include.keys(Object.keys(paths));
    await expectDocumentedGetsAndHeads(server, { paths }, (template) => template);
  });

  it('fail on an invalid document, and on a documented route that does not answer', async () => {
    const broken = new Koa().use((ctx) => {
      ctx.body = { openapi: '3.1.0', info: {}, paths: 5 };
    });
    expect((await rejects(expectValidOpenApiDocument(broken.callback()))).message).to.match(
      /not valid OpenAPI/,
    );
    const missing = { paths: { '/api/big/{size}': {} } };
    await rejects(expectDocumentedGetsAndHeads(server, missing, (t) => t.replace('{size}', '0')));
  });
});
