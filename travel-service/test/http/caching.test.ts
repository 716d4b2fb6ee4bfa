import { expect } from 'chai';
import { expectCacheControl, expectRevalidated } from 'service-kit/testing';
import { request, seededApp, seededEntry } from '../helpers.js';

describe('caching', () => {
  const app = seededApp().callback();
  const { slug } = seededEntry('new-york');

  it('gives each route the Cache-Control that fits it', async () => {
    await expectCacheControl(request(app), [
      ['/api/itineraries', 'public, max-age=300'],
      [`/api/itineraries/${slug}`, 'public, max-age=300'],
      [`/api/itineraries/${slug}/highlights`, 'public, max-age=300'],
      ['/openapi.json', 'public, max-age=300'],
      ['/docs', 'public, max-age=300'],
      [`/itineraries/${slug}`, 'public, max-age=300'],
      [`/itineraries?destination=${slug}`, 'public, max-age=300'],
      ['/', 'no-store'],
      ['/healthz', 'no-store'],
      ['/nope', 'no-store'],
      ['/itineraries/atlantis', 'no-store'],
      ['/api/itineraries/atlantis', 'no-store'],
    ]);
  });

  it('revalidates a page with its weak ETag; the random home page has none', async () => {
    await expectRevalidated(request(app), `/itineraries/${slug}`);
    const home = await request(app).get('/').expect(200);
    expect(home.headers.etag).to.equal(undefined);
  });
});
