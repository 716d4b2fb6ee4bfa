import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { seededCatalogue as catalogue, conformance, request, seededApp } from '../helpers.js';

const app = seededApp().callback();
const game = catalogue.topRated(1)[0]!;

/** Every documented GET route, with example values in its path. */
const documentedUrls = () =>
  Object.keys(conformance.document.paths).map((template) =>
    template.replace('{id}', String(game.id)).replace('{genre}', game.genre),
  );

describe('OpenAPI document and /docs', () => {
  it('GET /openapi.json is a valid OpenAPI 3.1 document', async () => {
    const res = await request(app).get('/openapi.json').expect(200).expect('Content-Type', /json/);
    expect(res.body.openapi).to.equal('3.1.0');
    const result = await new Validator().validate(res.body);
    expect(result.errors, JSON.stringify(result.errors)).to.equal(undefined);
    expect(result.valid).to.equal(true);
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
    for (const url of documentedUrls()) {
      await request(app).get(url).expect(200);
      const head = await request(app).head(url).expect(200);
      expect(head.text, url).to.equal(undefined);
      expect(head.headers['content-type'], url).to.match(/json/);
    }
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
