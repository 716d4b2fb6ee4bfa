import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { readConfig } from '../../src/config.js';
import { request } from '../helpers.js';
import { type StoreHandle, sqliteFactory } from '../stores.js';

// Off by default: the kit's wiring test shows that a preflight then gets no CORS headers.
describe('CORS', () => {
  let handle: StoreHandle;
  beforeEach(async () => {
    handle = await sqliteFactory.open();
  });
  afterEach(() => handle.dispose());

  it('is off by default; a configured origin may send writes with a token and a JSON body', async () => {
    expect(readConfig({}).corsOrigins).to.deep.equal([]);
    const open = createApp({ store: handle.store, corsOrigins: ['https://good.example'] });
    const res = await request(open.callback())
      .options('/cds')
      .set('Origin', 'https://good.example')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, content-type')
      .expect(204);
    expect(res.headers['access-control-allow-origin']).to.equal('https://good.example');
    expect(res.headers['access-control-allow-methods']).to.equal('GET,POST,PUT,DELETE,HEAD');
    expect(res.headers['access-control-allow-headers']).to.include('Authorization');
    expect(res.headers['access-control-allow-headers']).to.include('Content-Type');
  });
});
