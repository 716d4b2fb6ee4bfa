import { randomUUID } from 'node:crypto';
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

  it('lets a conditional write through a preflight, for a list of origins and for any', async () => {
    for (const origins of [['https://good.example'], ['*']]) {
      const app = createApp({ store: handle.store, corsOrigins: origins, apiToken: 't' });
      const res = await request(app.callback())
        .options(`/cds/${randomUUID()}`)
        .set('Origin', 'https://good.example')
        .set('Access-Control-Request-Method', 'PUT')
        .set('Access-Control-Request-Headers', 'authorization,content-type,if-match')
        .expect(204);
      expect(res.headers['access-control-allow-headers'], origins[0]).to.equal(
        'Authorization,Content-Type,If-Match,If-None-Match,X-Request-Id',
      );
      // The answer depends on Origin only when origins are listed (the edge's cache needs that).
      if (origins[0] === '*') expect(res.headers.vary ?? '').not.to.match(/origin/i);
      else expect(res.headers.vary).to.match(/\bOrigin\b/);
    }
  });

  it("lets a script read a list's X-Total-Count-Relation", async () => {
    const app = createApp({ store: handle.store, corsOrigins: ['https://good.example'] });
    const res = await request(app.callback())
      .get('/cds?before=2000')
      .set('Origin', 'https://good.example')
      .expect(200);
    expect(res.headers['x-total-count-relation']).to.equal('eq');
    expect(res.headers['access-control-expose-headers']).to.include('X-Total-Count-Relation');
  });
});
