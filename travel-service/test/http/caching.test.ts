import { expect } from 'chai';
import { expectRevalidates } from 'service-kit/testing';
import { createApp } from '../../src/app.js';
import { Itineraries } from '../../src/itineraries/itineraries.js';
import { seededRandom } from '../../src/itineraries/random.js';
import { request, seededApp, seededDestinations, seededEntry, TEST_SEED } from '../helpers.js';

/** The seeded itineraries, counting the destinations they are asked for. */
class CountingItineraries extends Itineraries {
  asked = 0;
  override find(name: string) {
    this.asked++;
    return super.find(name);
  }
}

describe('caching', () => {
  const app = seededApp().callback();
  const { slug } = seededEntry('new-york');

  describe('ETag and 304', () => {
    for (const path of [
      '/api/itineraries',
      `/api/itineraries/${slug}`,
      `/api/itineraries/${slug}/highlights`,
      '/openapi.json',
      `/itineraries/${slug}`,
      '/docs',
    ]) {
      it(`${path}: 304 for a matching If-None-Match, 200 for another`, async () => {
        await expectRevalidates(app, path);
      });
    }

    it('gives every encoding of a body the same weak validator', async () => {
      const path = `/api/itineraries/${slug}`;
      const plain = await request(app).get(path).set('Accept-Encoding', 'identity');
      const gzip = await request(app).get(path).set('Accept-Encoding', 'gzip');
      const br = await request(app).get(path).set('Accept-Encoding', 'br');
      expect(new Set([plain.headers.etag, gzip.headers.etag, br.headers.etag]).size).to.equal(1);
      await request(app)
        .get(path)
        .set('Accept-Encoding', 'gzip')
        .set('If-None-Match', plain.headers.etag ?? '')
        .expect(304);
    });

    it('gives no validator to an answer that must not be stored', async () => {
      const home = await request(app).get('/').expect(200);
      expect(home.headers['cache-control']).to.equal('no-store');
      expect(home.headers.etag).to.equal(undefined);
    });
  });

  it('gives each route the Cache-Control that fits it', async () => {
    const cases: [string, string][] = [
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
    ];
    for (const [path, expected] of cases) {
      expect((await request(app).get(path)).headers['cache-control'], path).to.equal(expected);
    }
  });

  it('answers a repeated GET from the response cache, without asking the itineraries', async () => {
    const counting = new CountingItineraries(seededDestinations, seededRandom(TEST_SEED));
    const cached = createApp({ itineraries: counting });
    for (const path of [`/api/itineraries/${slug}`, `/itineraries/${slug}`]) {
      counting.asked = 0;
      const first = await request(cached.callback()).get(path).expect(200);
      const second = await request(cached.callback()).get(path).expect(200);
      expect(counting.asked, path).to.equal(1);
      expect(second.text, path).to.equal(first.text);
      expect(second.headers['x-request-id']).to.not.equal(first.headers['x-request-id']);
    }
    expect(cached.responseCache?.entries).to.equal(2);
  });

  it('never keeps errors or random pages', async () => {
    const cached = seededApp();
    for (const [path, status] of [
      ['/api/itineraries/atlantis', 404],
      ['/api/itineraries/%E0%A4%A', 400],
      ['/itineraries/atlantis', 404],
    ] as const) {
      for (let i = 0; i < 2; i++) await request(cached.callback()).get(path).expect(status);
    }
    const homes = [];
    for (let i = 0; i < 4; i++) homes.push((await request(cached.callback()).get('/')).text);
    expect(new Set(homes).size).to.be.greaterThan(1);
    expect(cached.responseCache?.entries).to.equal(0);
  });
});
