import { expect } from 'chai';
import { expectDocumentedApi } from 'service-kit/testing';
import { seededCatalogue as catalogue, request, seededApp } from '../helpers.js';

const app = seededApp().callback();
const game = catalogue.topRated(1)[0]!;

describe('OpenAPI document and /docs', () => {
  it('documents every JSON route the service has, each answering as documented', async () => {
    const document = await expectDocumentedApi(app, (template) =>
      template.replace('{id}', String(game.id)).replace('{genre}', game.genre),
    );
    expect(Object.keys(document.paths)).to.have.members([
      '/healthz',
      '/livez',
      '/readyz',
      '/api/games',
      '/api/games/top-rated',
      '/api/games/hidden-gems',
      '/api/games/genre/{genre}',
      '/api/games/{id}',
      '/api/games/{id}/recommendations',
      '/openapi.json',
    ]);
    type Described = { description?: string; parameters?: { name: string; description: string }[] };
    const get = (path: string) => (document.paths[path] as { get: Described }).get;
    // Both routes fit /api/games/genre/recommendations: each says which one answers it.
    expect(get('/api/games/genre/{genre}').description).to.include(
      'it is this route (the genre `recommendations`), which is matched first',
    );
    expect(get('/api/games/{id}/recommendations').description).to.include(
      '`/api/games/genre/recommendations` is not this route but `/api/games/genre/{genre}`',
    );
    const list = get('/api/games');
    expect(list.description).to.include('a `from` after `to`');
    expect(list.parameters?.find((p) => p.name === 'from')?.description).to.include(
      'not after `to`',
    );
  });

  it('/docs shows the document in the site layout', async () => {
    const res = await request(app).get('/docs').expect(200).expect('Content-Type', /html/);
    expect(res.text).to.include(
      '<code>/<span class="path-segment">api</span>/<wbr><span class="path-segment">games</span>/<wbr><span class="path-segment">{id}</span></code>',
    );
    expect(res.text).to.include('Game Shelf');
  });
});
