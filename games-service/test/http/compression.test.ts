import { expect } from 'chai';
import { request, seededApp } from '../helpers.js';

describe('compression', () => {
  it('compresses a large answer, which decodes to the same body', async () => {
    const app = seededApp().callback();
    const plain = await request(app).get('/api/games').set('Accept-Encoding', 'identity');
    const packed = await request(app).get('/api/games').set('Accept-Encoding', 'gzip');
    expect(packed.headers['content-encoding']).to.equal('gzip');
    expect(packed.body).to.deep.equal(plain.body);
  });
});
