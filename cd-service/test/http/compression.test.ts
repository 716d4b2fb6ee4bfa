import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { makeCdInput, request } from '../helpers.js';
import { type StoreHandle, sqliteFactory } from '../stores.js';

describe('compression', () => {
  let handle: StoreHandle;
  beforeEach(async () => {
    handle = await sqliteFactory.open();
  });
  afterEach(() => handle.dispose());

  it('compresses a large answer, which decodes to the same body', async () => {
    const app = createApp({ store: handle.store }).callback();
    for (let i = 0; i < 20; i++) {
      await request(app).post('/cds').send(makeCdInput()).expect(201);
    }
    const plain = await request(app).get('/cds').set('Accept-Encoding', 'identity');
    const packed = await request(app).get('/cds').set('Accept-Encoding', 'gzip');
    expect(packed.headers['content-encoding']).to.equal('gzip');
    expect(packed.body).to.deep.equal(plain.body);
  });
});
