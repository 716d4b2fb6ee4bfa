import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
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
    expect(res.text).to.include('· Fixture</title>');
    const paths = api.document.paths as Record<string, Record<string, { operationId: string }>>;
    for (const operations of Object.values(paths)) {
      for (const { operationId } of Object.values(operations)) {
        expect(res.text).to.include(`<section class="operation" id="${operationId}"`);
      }
    }
    expect(res.text).to.not.match(/undefined|NaN/);
  });
});
