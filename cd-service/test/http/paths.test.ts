import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import type { Cd } from '../../src/cd/schema.js';
import { expectErrorBody, makeCdInput, request } from '../helpers.js';
import { describeEachStore, type StoreHandle } from '../stores.js';

describeEachStore('HTTP: one rule for paths', (factory) => {
  let handle: StoreHandle;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let cd: Cd;

  beforeEach(async () => {
    handle = await factory.open();
    app = createApp({ store: handle.store }).callback();
    cd = (await request(app).post('/cds').send(makeCdInput()).expect(201)).body;
  });
  afterEach(() => handle.dispose());

  it('reads a percent-encoded unreserved character as the plain one, writes included', async () => {
    const list = await request(app).get('/cds').expect(200);
    expect((await request(app).get('/%63ds').expect(200)).text).to.equal(list.text);
    const encodedId = `/cds/${cd.id.replace(/-/g, '%2D').replace(/^(.)/, (c) => `%${c.charCodeAt(0).toString(16)}`)}`;
    expect((await request(app).get(encodedId).expect(200)).body).to.deep.equal(cd);
    const changed = await request(app)
      .put(`/%63ds/${cd.id}`)
      .send({ title: 'Renamed' })
      .expect(200);
    expect(changed.body.title).to.equal('Renamed');
    await request(app).delete(encodedId).expect(204);
    expectErrorBody(await request(app).get(`/cds/${cd.id}`), 404);
  });

  it('matches paths in their exact case: /CDS is no route', async () => {
    for (const path of ['/CDS', `/Cds/${cd.id}`, '/HEALTHZ', '/OpenAPI.json']) {
      expect((await request(app).get(path)).status, path).to.equal(404);
    }
    expect((await request(app).post('/CDS').send(makeCdInput())).status).to.equal(404);
    expect((await request(app).get('/cds').expect(200)).body).to.have.length(1);
  });
});
