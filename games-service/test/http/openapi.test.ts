import { expect } from 'chai';
import { expectDocumentedGetsAndHeads, expectValidOpenApiDocument } from 'service-kit/testing';
import { seededCatalogue as catalogue, conformance, request, seededApp } from '../helpers.js';

const app = seededApp().callback();
const game = catalogue.topRated(1)[0]!;

describe('OpenAPI document and /docs', () => {
  it('GET /openapi.json is a valid OpenAPI 3.1 document', async () => {
    await expectValidOpenApiDocument(app);
  });

  it('documents every JSON route the service has', async () => {
    const { body } = await request(app).get('/openapi.json');
    expect(Object.keys(body.paths)).to.have.members([
      '/healthz',
      '/api/games',
      '/api/games/top-rated',
      '/api/games/hidden-gems',
      '/api/games/genre/{genre}',
      '/api/games/{id}',
      '/api/games/{id}/recommendations',
      '/openapi.json',
    ]);
  });

  it('answers every documented route as documented, for GET and HEAD', async () => {
    await expectDocumentedGetsAndHeads(app, conformance.document, (template) =>
      template.replace('{id}', String(game.id)).replace('{genre}', game.genre),
    );
  });

  it('/docs renders every operation of the document in the site layout', async () => {
    const res = await request(app).get('/docs').expect(200).expect('Content-Type', /html/);
    for (const path of Object.keys(conformance.document.paths))
      expect(res.text).to.include(`<code>${path}</code>`);
    expect(res.text).to.include('Game Shelf');
    expect(res.text).to.not.match(/undefined|NaN/);
    expect(res.text).to.not.match(/<(script|link)[^>]+https?:/);
  });
});
