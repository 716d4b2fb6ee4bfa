import { expect } from 'chai';
import type { Cd } from '../../src/cd/schema.js';
import { appEachTest } from '../fixtures.js';
import { expectErrorBody, makeCdInput, request } from '../helpers.js';
import { describeEachStore } from '../stores.js';

describeEachStore('HTTP: one rule for paths', (factory) => {
  const fixture = appEachTest(factory);
  let cd: Cd;

  beforeEach(async () => {
    cd = (await request(fixture.app).post('/cds').send(makeCdInput()).expect(201)).body;
  });

  it('reads a percent-encoded unreserved character as the plain one, writes included', async () => {
    const list = await request(fixture.app).get('/cds').expect(200);
    expect((await request(fixture.app).get('/%63ds').expect(200)).text).to.equal(list.text);
    const encodedId = `/cds/${cd.id.replace(/-/g, '%2D').replace(/^(.)/, (c) => `%${c.charCodeAt(0).toString(16)}`)}`;
    expect((await request(fixture.app).get(encodedId).expect(200)).body).to.deep.equal(cd);
    const changed = await request(fixture.app)
      .put(`/%63ds/${cd.id}`)
      .send({ title: 'Renamed' })
      .expect(200);
    expect(changed.body.title).to.equal('Renamed');
    await request(fixture.app).delete(encodedId).expect(204);
    expectErrorBody(await request(fixture.app).get(`/cds/${cd.id}`), 404);
  });

  it('matches paths in their exact case: /CDS is no route', async () => {
    for (const path of ['/CDS', `/Cds/${cd.id}`, '/HEALTHZ', '/OpenAPI.json']) {
      expect((await request(fixture.app).get(path)).status, path).to.equal(404);
    }
    expect((await request(fixture.app).post('/CDS').send(makeCdInput())).status).to.equal(404);
    expect((await request(fixture.app).get('/cds').expect(200)).body).to.have.length(1);
  });
});
