import { expect } from 'chai';
import { markDraining } from '../src/health.js';
import { fixtureService } from './fixture.js';

describe('health operation', () => {
  it('answers ok with its facts, and 503 unavailable when the check says so, never stored', async () => {
    const { app, health, request } = fixtureService();
    const server = app.callback();
    const up = await request(server).get('/healthz').expect(200);
    expect(up.body).to.deep.equal({ status: 'ok', items: 1 });
    expect(up.headers['cache-control']).to.equal('no-store');
    health.up = false;
    const down = await request(server).get('/healthz').expect(503);
    expect(down.body).to.deep.equal({ status: 'unavailable', items: 1 });
  });
});

describe('probes', () => {
  it('/livez answers 200 while the process runs, never stored', async () => {
    const { app, request } = fixtureService();
    const res = await request(app.callback()).get('/livez').expect(200);
    expect(res.body).to.deep.equal({ status: 'ok' });
    expect(res.headers['cache-control']).to.equal('no-store');
    markDraining(app);
    await request(app.callback()).get('/livez').expect(200);
  });

  it('/readyz answers 200, then 503 unavailable while the check fails, and 503 draining once the process stops', async () => {
    const { app, health, request } = fixtureService();
    const server = app.callback();
    const ready = await request(server).get('/readyz').expect(200);
    expect(ready.body).to.deep.equal({ status: 'ok' });
    expect(ready.headers['cache-control']).to.equal('no-store');
    expect(ready.headers['content-type']).to.match(/^application\/json/);
    health.up = false;
    expect((await request(server).get('/readyz').expect(503)).body).to.deep.equal({
      status: 'unavailable',
    });
    health.up = true;
    markDraining(app);
    const draining = await request(server).get('/readyz').expect(503);
    expect(draining.body).to.deep.equal({ status: 'draining' });
    expect(draining.headers['cache-control']).to.equal('no-store');
    // Another app in the same process is not draining.
    await request(fixtureService().app.callback()).get('/readyz').expect(200);
  });

  it('are kit operations of the OpenAPI document, beside /healthz, documented without a 304', async () => {
    const { app, request } = fixtureService();
    const { body } = await request(app.callback()).get('/openapi.json').expect(200);
    expect(body.paths).to.include.keys('/healthz', '/livez', '/readyz');
    expect(body.paths['/readyz'].get.responses).to.include.keys('200', '503');
    for (const path of ['/healthz', '/livez', '/readyz']) {
      expect(body.paths[path].get.responses, path).not.to.have.any.keys('304');
      await request(app.callback()).get(path).set('If-None-Match', '*').expect(200);
    }
    expect(body.paths['/openapi.json'].get.responses).to.include.keys('304');
  });
});
