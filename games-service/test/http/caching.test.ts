import { expect } from 'chai';
import { expectCacheControl } from 'service-kit/testing';
import { request, seededApp } from '../helpers.js';

describe('caching', () => {
  const app = seededApp().callback();

  it('gives each route the Cache-Control that fits it', async () => {
    await expectCacheControl(request(app), [
      ['/api/games', 'public, max-age=300'],
      ['/games/1', 'public, max-age=300'],
      ['/', 'no-store'],
      ['/random', 'no-store'],
      ['/healthz', 'no-store'],
      ['/nope', 'no-store'],
      ['/api/games/999999', 'no-store'],
    ]);
  });

  it('revalidates a page with its weak ETag; a random page has none', async () => {
    const page = await request(app).get('/top-rated').expect(200);
    expect(page.headers.etag).to.match(/^W\//);
    await request(app)
      .get('/top-rated')
      .set('If-None-Match', page.headers.etag ?? '')
      .expect(304);
    const home = await request(app).get('/').expect(200);
    expect(home.headers.etag).to.equal(undefined);
  });
});
