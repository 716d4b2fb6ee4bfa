import { expect } from 'chai';
import { seededItineraries as itineraries, request, seededApp } from '../helpers.js';

/** The largest itinerary answer, worth compressing. */
const large = [...itineraries.all]
  .sort((a, b) => JSON.stringify(a.itinerary).length - JSON.stringify(b.itinerary).length)
  .at(-1)!;

describe('compression', () => {
  it('compresses a large answer, which decodes to the same body', async () => {
    const app = seededApp().callback();
    const path = `/api/itineraries/${large.slug}`;
    const plain = await request(app).get(path).set('Accept-Encoding', 'identity');
    const packed = await request(app).get(path).set('Accept-Encoding', 'gzip');
    expect(Number(plain.headers['content-length'])).to.be.at.least(1024);
    expect(packed.headers['content-encoding']).to.equal('gzip');
    expect(packed.body).to.deep.equal(plain.body);
  });
});
