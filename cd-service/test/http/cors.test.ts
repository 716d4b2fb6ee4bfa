import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import type { Cd } from '../../src/cd/schema.js';
import { readConfig } from '../../src/config.js';
import type { CdStore } from '../../src/store/store.js';
import { expectErrorBody, makeCdInput, request } from '../helpers.js';
import { describeEachStore, type StoreHandle } from '../stores.js';

describeEachStore('CORS', (factory) => {
  let handle: StoreHandle;
  let store: CdStore;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;

  beforeEach(async () => {
    handle = await factory.open();
    store = handle.store;
    app = createApp({ store }).callback();
  });
  afterEach(() => handle.dispose());

  const create = async (): Promise<Cd> =>
    (await request(app).post('/cds').send(makeCdInput()).expect(201)).body;
  const preflight = (target: typeof app, path: string, method: string) =>
    request(target)
      .options(path)
      .set('Origin', 'https://good.example')
      .set('Access-Control-Request-Method', method)
      .set('Access-Control-Request-Headers', 'authorization, content-type');

  it('is off by default: no CORS header, not even for a preflight', async () => {
    const cd = await create();
    const read = await request(app).get('/cds').set('Origin', 'https://good.example');
    expect(read.headers['access-control-allow-origin']).to.equal(undefined);
    const pre = await preflight(app, `/cds/${cd.id}`, 'PUT');
    expect(pre.headers['access-control-allow-origin']).to.equal(undefined);
    expect(pre.headers['access-control-allow-methods']).to.equal(undefined);
  });

  it('reads CORS_ORIGINS: none by default, else a list or *', () => {
    expect(readConfig({}).corsOrigins).to.deep.equal([]);
    expect(
      readConfig({ CORS_ORIGINS: 'https://a.example, https://b.example' }).corsOrigins,
    ).to.deep.equal(['https://a.example', 'https://b.example']);
    expect(readConfig({ CORS_ORIGINS: '*' }).corsOrigins).to.deep.equal(['*']);
  });

  it('answers a preflight for a write with a token, for a configured origin', async () => {
    const open = createApp({ store, corsOrigins: ['https://good.example'] }).callback();
    const cd = await create();
    for (const [path, method] of [
      [`/cds/${cd.id}`, 'PUT'],
      ['/cds', 'POST'],
      [`/cds/${cd.id}`, 'DELETE'],
    ] as const) {
      const res = await preflight(open, path, method).expect(204);
      expect(res.headers['access-control-allow-origin']).to.equal('https://good.example');
      expect(res.headers['access-control-allow-methods']).to.include(method);
      expect(res.headers['access-control-allow-headers']).to.include('Authorization');
      expect(res.headers['access-control-allow-headers']).to.include('Content-Type');
      expect(res.headers['access-control-max-age']).to.equal('600');
    }
    const bad = await request(open)
      .options('/cds')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(bad.headers['access-control-allow-origin']).to.equal(undefined);
  });

  it('marks API responses, errors included, readable by a configured origin only', async () => {
    const open = createApp({ store, corsOrigins: ['https://good.example'] }).callback();
    // Twice each: an answer kept by the response cache is marked for its own request's origin.
    for (let i = 0; i < 2; i++) {
      const good = await request(open).get('/cds').set('Origin', 'https://good.example');
      expect(good.headers['access-control-allow-origin']).to.equal('https://good.example');
      expect(good.headers['access-control-expose-headers']).to.include('X-Total-Count');
      expect(good.headers.vary).to.match(/Origin/);
      const bad = await request(open).get('/cds').set('Origin', 'https://evil.example');
      expect(bad.headers['access-control-allow-origin']).to.equal(undefined);
    }
    const error = await request(open).get('/cds/nope').set('Origin', 'https://good.example');
    expectErrorBody(error, 400);
    expect(error.headers['access-control-allow-origin']).to.equal('https://good.example');
    const page = await request(open).get('/docs').set('Origin', 'https://good.example');
    expect(page.headers['access-control-allow-origin']).to.equal(undefined);
  });

  it('allows any origin with *', async () => {
    const any = createApp({ store, corsOrigins: ['*'] }).callback();
    const res = await request(any).get('/healthz').set('Origin', 'https://x.example');
    expect(res.headers['access-control-allow-origin']).to.equal('*');
  });
});
