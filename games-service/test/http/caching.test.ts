import { expect } from 'chai';
import { expectCacheControl, expectRevalidated } from 'service-kit/testing';
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
    await expectRevalidated(request(app), '/top-rated');
    const home = await request(app).get('/').expect(200);
    expect(home.headers.etag).to.equal(undefined);
  });
});
