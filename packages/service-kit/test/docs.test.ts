import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { describeApi } from '../src/api.js';
import type { Operation } from '../src/operations.js';
import { fixtureService } from './fixture.js';

describe('OpenAPI document and /docs', () => {
  const { app, api, request } = fixtureService();
  const server = app.callback();

  it('is a valid OpenAPI 3.1 document of every operation, its own included', async () => {
    const res = await request(server)
      .get('/openapi.json')
      .expect(200)
      .expect('Content-Type', /json/);
    const result = await new Validator().validate(res.body);
    expect(result.errors, JSON.stringify(result.errors)).to.equal(undefined);
    expect(Object.keys(res.body.paths)).to.have.members([
      '/healthz',
      '/livez',
      '/readyz',
      '/api/items',
      '/api/items/last',
      '/api/random',
      '/api/big/{size}',
      '/api/items/half-done',
      '/api/boom',
      '/openapi.json',
    ]);
    expect(res.body).to.deep.equal(JSON.parse(JSON.stringify(api.document)));
  });

  it('renders every operation in the service layout at /docs', async () => {
    const res = await request(server).get('/docs').expect(200).expect('Content-Type', /html/);
    expect(res.text).to.include('&#xB7; Fixture</title>');
    const paths = api.document.paths as Record<string, Record<string, { operationId: string }>>;
    for (const operations of Object.values(paths)) {
      for (const { operationId } of Object.values(operations)) {
        expect(res.text).to.include(`<section class="operation" id="${operationId}"`);
      }
    }
    expect(res.text).to.not.match(/undefined|NaN/);
  });

  it('names its server relative to itself, and which operations need the bearer token', () => {
    const read: Operation = {
      id: 'read',
      method: 'get',
      path: '/api/things',
      summary: 'Read',
      responses: { 200: { description: 'Things' } },
      errors: [],
      handler: () => {},
    };
    const write: Operation = { ...read, id: 'write', method: 'post', bearerAuth: true };
    const info = { title: 'T', version: '1', description: 'D' };
    type Doc = {
      servers: { url: string }[];
      paths: Record<string, Record<string, { security?: unknown }>>;
      components: { securitySchemes?: Record<string, { type: string; scheme: string }> };
    };
    const secured = describeApi(info, [read, write]).document as Doc;
    expect(secured.servers.map((server) => server.url)).to.deep.equal(['/']);
    expect(secured.components.securitySchemes?.bearerAuth).to.include({
      type: 'http',
      scheme: 'bearer',
    });
    expect(secured.paths['/api/things']?.post?.security).to.deep.equal([{ bearerAuth: [] }]);
    expect(secured.paths['/api/things']?.get?.security).to.deep.equal([]);
    expect(secured.paths['/openapi.json']?.get?.security).to.deep.equal([]);

    const open = describeApi(info, [read]).document as Doc;
    expect(open.servers.map((server) => server.url)).to.deep.equal(['/']);
    expect(open.components.securitySchemes).to.equal(undefined);
    expect(open.paths['/api/things']?.get).to.not.have.property('security');
  });
});
