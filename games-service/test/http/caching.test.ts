import { expect } from 'chai';
import { expectRevalidates } from 'service-kit/testing';
import { createApp } from '../../src/app.js';
import { Catalogue } from '../../src/catalogue/catalogue.js';
import { seededCatalogue as catalogue, request, seededApp } from '../helpers.js';

/** A catalogue that counts the questions it is asked. */
class CountingCatalogue extends Catalogue {
  asked = 0;
  override topRated(count: number) {
    this.asked++;
    return super.topRated(count);
  }
}

describe('caching', () => {
  const app = seededApp().callback();

  describe('ETag and 304', () => {
    for (const path of [
      '/api/games',
      '/api/games/1',
      '/openapi.json',
      '/top-rated',
      '/games/1',
      '/docs',
    ]) {
      it(`${path}: 304 for a matching If-None-Match, 200 for another`, async () => {
        await expectRevalidates(app, path);
      });
    }

    it('gives no validator to an answer that must not be stored', async () => {
      const home = await request(app).get('/').expect(200);
      expect(home.headers['cache-control']).to.equal('no-store');
      expect(home.headers.etag).to.equal(undefined);
    });
  });

  it('gives each route the Cache-Control that fits it', async () => {
    const cases: [string, string][] = [
      ['/api/games', 'public, max-age=300'],
      ['/games/1', 'public, max-age=300'],
      ['/', 'no-store'],
      ['/random', 'no-store'],
      ['/healthz', 'no-store'],
      ['/nope', 'no-store'],
      ['/api/games/999999', 'no-store'],
    ];
    for (const [path, expected] of cases) {
      expect((await request(app).get(path)).headers['cache-control'], path).to.equal(expected);
    }
  });

  it('answers a repeated GET from the response cache, without asking the catalogue', async () => {
    const counting = new CountingCatalogue(catalogue.games);
    const cached = createApp({ catalogue: counting });
    const first = await request(cached.callback()).get('/api/games/top-rated').expect(200);
    const second = await request(cached.callback()).get('/api/games/top-rated').expect(200);
    expect(counting.asked).to.equal(1);
    expect(second.body).to.deep.equal(first.body);
    expect(second.headers['x-request-id']).to.not.equal(first.headers['x-request-id']);
    expect(cached.responseCache?.entries).to.be.greaterThan(0);
  });

  it('never keeps errors or random pages', async () => {
    const cached = seededApp();
    for (let i = 0; i < 2; i++)
      await request(cached.callback()).get('/api/games/999999').expect(404);
    const homes = await Promise.all([1, 2, 3, 4].map(() => request(cached.callback()).get('/')));
    expect(new Set(homes.map((home) => home.text)).size).to.be.greaterThan(1);
    expect(cached.responseCache?.entries).to.equal(0);
  });
});
