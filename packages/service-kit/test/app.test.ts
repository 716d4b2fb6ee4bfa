import { expect } from 'chai';
import request from 'supertest';
import { createServiceApp } from '../src/app.js';
import { Router } from '../src/routing.js';
import { fixtureService } from './fixture.js';

describe('createServiceApp', () => {
  // The fixture's folder holds views/ and public/, as a service's does above its src/app.ts.
  const appModule = new URL('./fixture/src/app.js', import.meta.url).href;
  const { api } = fixtureService();
  const parts = { service: 'laid-out', api, jsonPaths: ['/api'], errorView: 'error.pug' };

  it('finds the views above the app module and answers a missing page with its error view', async () => {
    const app = createServiceApp(appModule, parts);
    const res = await request(app.callback()).get('/no-such-page').expect(404);
    expect(res.type).to.equal('text/html');
    expect(res.text).to.include('<h1>Error page</h1>');
  });

  it('answers the API to any origin unless the settings name the origins', async () => {
    const open = createServiceApp(appModule, parts).callback();
    const anyOrigin = await request(open).get('/api/items').set('Origin', 'https://a.example');
    expect(anyOrigin.headers['access-control-allow-origin']).to.equal('*');
    const closed = createServiceApp(appModule, parts, { corsOrigins: ['https://b.example'] });
    const refused = await request(closed.callback())
      .get('/api/items')
      .set('Origin', 'https://a.example');
    expect(refused.headers['access-control-allow-origin']).to.equal(undefined);
  });
});

describe('the app', () => {
  it('sends an answer whose headers a route already sent as it is: no tag, no encoding, no error', async () => {
    const early = new Router().get('/early', (ctx) => {
      ctx.status = 200;
      ctx.type = 'text';
      ctx.flushHeaders();
      ctx.body = 'x'.repeat(2000);
    });
    const { app } = fixtureService({ routers: [early] });
    const res = await request(app.callback())
      .get('/early')
      .set('Accept-Encoding', 'gzip')
      .timeout(1500)
      .expect(200);
    expect(res.headers['content-encoding']).to.equal(undefined);
    expect(res.headers.etag).to.equal(undefined);
    expect(res.text).to.equal('x'.repeat(2000));
  });

  it('cuts an answer whose headers were sent when its route then fails, rather than leave it open', async () => {
    const early = new Router()
      .get('/early-failure', (ctx) => {
        ctx.status = 200;
        ctx.flushHeaders();
        throw new Error('after the headers');
      })
      .get('/early-bodiless', (ctx) => {
        ctx.status = 404;
        ctx.flushHeaders();
      });
    const { app } = fixtureService({ routers: [early] });
    const failed = await request(app.callback())
      .get('/early-failure')
      .timeout(1500)
      .then(
        () => 'answered',
        (error: { code?: string; message: string }) => error.code ?? error.message,
      );
    expect(failed).to.be.oneOf(['ECONNRESET', 'aborted', 'socket hang up']);
    const bodiless = await request(app.callback()).get('/early-bodiless').timeout(1500);
    expect(bodiless.status).to.equal(404);
  });
});
