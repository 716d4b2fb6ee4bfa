import { expect } from 'chai';
import request from 'supertest';
import { describeApi } from '../src/api.js';
import type { Operation } from '../src/operations.js';
import { fixtureService } from './fixture.js';

/** A header's comma-separated names, sorted. */
const names = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((name) => name.trim())
    .sort();

/** A write that checks If-Match and the bearer token, and a read: what a CD API has. */
const guardedWrites: Operation[] = [
  {
    id: 'readThing',
    method: 'get',
    path: '/api/things/:id',
    summary: 'A thing',
    responses: { 200: { description: 'The thing' } },
    errors: [],
    handler: (ctx) => {
      ctx.body = { id: ctx.params.id };
    },
  },
  {
    id: 'changeThing',
    method: 'put',
    path: '/api/things/:id',
    summary: 'Change a thing',
    parameters: [{ name: 'If-Match', in: 'header', description: 'Its version', schema: {} }],
    requestBody: { type: 'object' },
    responses: { 200: { description: 'Changed' } },
    errors: [401, 412],
    bearerAuth: true,
    handler: (ctx) => {
      ctx.body = {};
    },
  },
];

describe('CORS', () => {
  it('allows the configured origins on JSON paths only, and preflights', async () => {
    const { app, request } = fixtureService();
    const server = app.callback();
    const allowed = await request(server)
      .get('/api/items')
      .set('Origin', 'https://allowed.example');
    expect(allowed.headers['access-control-allow-origin']).to.equal('https://allowed.example');
    expect(allowed.headers['access-control-expose-headers']).to.include('X-Request-Id');
    expect(allowed.headers.vary).to.match(/Origin/);
    const other = await request(server).get('/api/items').set('Origin', 'https://evil.example');
    expect(other.headers['access-control-allow-origin']).to.equal(undefined);
    const error = await request(server)
      .get('/api/big/0')
      .set('Origin', 'https://allowed.example')
      .expect(404);
    expect(error.headers['access-control-allow-origin']).to.equal('https://allowed.example');
    const page = await request(server).get('/').set('Origin', 'https://allowed.example');
    expect(page.headers['access-control-allow-origin']).to.equal(undefined);
    const preflight = await request(server)
      .options('/api/items')
      .set('Origin', 'https://allowed.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(preflight.status).to.equal(204);
    expect(preflight.headers['access-control-max-age']).to.equal('600');
    // The methods of the API's own operations, HEAD with GET.
    expect(preflight.headers['access-control-allow-methods']).to.equal('GET,POST,DELETE,HEAD');
  });

  it("lets a script read every header an API answer may carry, errors' included", async () => {
    const { app } = fixtureService();
    const res = await request(app.callback())
      .get('/api/items')
      .set('Origin', 'https://allowed.example');
    expect(names(res.headers['access-control-expose-headers'])).to.deep.equal([
      'ETag',
      'Link',
      'Location',
      'Retry-After',
      'WWW-Authenticate',
      'X-Request-Id',
      'X-Total-Count',
      'X-Total-Count-Relation',
    ]);
  });

  it('lets a preflight ask for the request headers the operations read, and no other', async () => {
    const preflight = (app: ReturnType<typeof fixtureService>['app'], method: string) =>
      request(app.callback())
        .options('/api/things/1')
        .set('Origin', 'https://allowed.example')
        .set('Access-Control-Request-Method', method)
        .set('Access-Control-Request-Headers', 'if-match, x-other')
        .expect(204);
    const api = describeApi(
      { title: 'Things', version: '1', description: 'Things' },
      guardedWrites,
    );
    const guarded = await preflight(fixtureService({ api }).app, 'PUT');
    // The token where it applies, a JSON body, If-Match that the write checks, If-None-Match
    // that a read checks, a request id anywhere; a header nothing reads is not listed.
    expect(names(guarded.headers['access-control-allow-headers'])).to.deep.equal([
      'Authorization',
      'Content-Type',
      'If-Match',
      'If-None-Match',
      'X-Request-Id',
    ]);
    // The fixture's API has no token and no If-Match: neither is allowed.
    const plain = await preflight(fixtureService().app, 'POST');
    expect(names(plain.headers['access-control-allow-headers'])).to.deep.equal([
      'Content-Type',
      'If-None-Match',
      'X-Request-Id',
    ]);
  });

  it('is off with no origins', async () => {
    const { app, request } = fixtureService({ corsOrigins: [] });
    const res = await request(app.callback()).get('/api/items').set('Origin', 'https://a.example');
    expect(res.headers['access-control-allow-origin']).to.equal(undefined);
  });

  it('answers any origin with * when configured so', async () => {
    const { app, request } = fixtureService({ corsOrigins: ['*'] });
    const res = await request(app.callback()).get('/api/items').set('Origin', 'https://a.example');
    expect(res.headers['access-control-allow-origin']).to.equal('*');
  });

  it('gives the same CORS headers to a request without Origin, whose answer a shared cache may give a browser', async () => {
    const { app, request } = fixtureService({ corsOrigins: ['*'] });
    const server = app.callback();
    const withOrigin = await request(server).get('/api/items').set('Origin', 'https://a.example');
    const without = await request(server).get('/api/items').expect(200);
    for (const name of ['access-control-allow-origin', 'access-control-expose-headers', 'vary']) {
      expect(without.headers[name], name).to.equal(withOrigin.headers[name]);
    }
    expect(without.headers['access-control-allow-origin']).to.equal('*');
  });

  it('says no Vary: Origin beside Access-Control-Allow-Origin: *, errors included', async () => {
    const { app, request } = fixtureService({ corsOrigins: ['*'] });
    const server = app.callback();
    const res = await request(server)
      .get('/api/items')
      .set('Origin', 'https://a.example')
      .expect(200);
    expect(res.headers['access-control-allow-origin']).to.equal('*');
    expect(res.headers.vary ?? '').not.to.match(/origin/i);
    const error = await request(server)
      .get('/api/big/0')
      .set('Origin', 'https://a.example')
      .expect(404);
    expect(error.headers['access-control-allow-origin']).to.equal('*');
    expect(error.headers.vary ?? '').not.to.match(/origin/i);
  });

  it('lets a script read the 400 of a malformed request: a broken query, a bad Host', async () => {
    const { app, request } = fixtureService({ corsOrigins: ['https://a.example'] });
    const server = app.callback();
    const brokenQuery = await request(server)
      .get('/api/items?name=%ZZ')
      .set('Origin', 'https://a.example')
      .expect(400);
    const badHost = await request(server)
      .get('/api/items')
      .set('Host', 'a b')
      .set('Origin', 'https://a.example')
      .expect(400);
    for (const res of [brokenQuery, badHost]) {
      expect(res.headers['access-control-allow-origin']).to.equal('https://a.example');
      expect(res.body.status).to.equal(400);
    }
  });
});
