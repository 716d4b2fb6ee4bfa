import { expect } from 'chai';
import Koa from 'koa';
import request from 'supertest';
import { path } from '../src/middleware/path.js';
import { expectPagesNotFound } from '../src/testing/answers.js';
import { expectErrorBody } from '../src/testing/http.js';
import { fixtureService } from './fixture.js';

describe('paths', () => {
  describe('the path middleware, alone', () => {
    const seen = new Koa().use(path((p) => p.startsWith('/api/'))).use((ctx) => {
      ctx.body = { path: ctx.path, url: ctx.url, jsonPath: ctx.state.jsonPath };
    });
    const server = seen.callback();
    const pathOf = async (url: string) => (await request(server).get(url)).body.path;

    it('decodes every percent-encoded unreserved character, in either case of hex', async () => {
      expect(await pathOf('/%61%5A%30%39%2d%2E%5f%7E/%7e')).to.equal('/aZ09-._~/~');
      expect(await pathOf('/api/games/%74op-rated')).to.equal('/api/games/top-rated');
    });

    it('leaves every other escape encoded, and the query as it is', async () => {
      for (const path of ['/a%2Fb', '/a%2fb', '/%25', '/%20x', '/%E2%82%AC', '/%3F', '/%', '/%4']) {
        expect(await pathOf(path), path).to.equal(path);
      }
      const res = await request(server).get('/%61?q=%61&x=%2F');
      expect(res.body).to.deep.equal({ path: '/a', url: '/a?q=%61&x=%2F', jsonPath: false });
    });

    it('decides the kind of path on its normal form', async () => {
      expect((await request(server).get('/%61pi/games')).body.jsonPath).to.equal(true);
      expect((await request(server).get('/API/games')).body.jsonPath).to.equal(false);
    });
  });

  describe('in a service', () => {
    const { app, request: conformRequest } = fixtureService();
    const server = app.callback();

    it('answers a percent-encoded unreserved character as the plain one, on every route', async () => {
      const items = await conformRequest(server).get('/api/items').expect(200);
      const encoded = await conformRequest(server).get('/api/%69tems').expect(200);
      expect(encoded.body).to.deep.equal(items.body);
      expect(encoded.headers.etag).to.equal(items.headers.etag);
      const docs = await conformRequest(server).get('/%64ocs').expect(200);
      expect(docs.headers['content-type']).to.match(/html/);
      // A client that encodes a name still reaches it; an encoded slash is no separator.
      await conformRequest(server).get('/api/big/%32').expect(200);
      expectErrorBody(await conformRequest(server).get('/api/items%2Flast'), 404);
      // An encoded prefix is still the JSON API's.
      expect((await conformRequest(server).get('/%61pi/items').expect(200)).body).to.deep.equal(
        items.body,
      );
    });

    it('routes a write at an encoded path as at the plain one', async () => {
      const fixture = fixtureService();
      const write = fixture.request(fixture.app.callback());
      await write.post('/%61pi/%69tems').send({ name: 'second' }).expect(201);
      expect(fixture.items.map((item) => item.name)).to.deep.equal(['first', 'second']);
      await write.delete('/api/items/%6C%61st').expect(204);
      expect(fixture.items.map((item) => item.name)).to.deep.equal(['first']);
    });

    it('matches routes in their exact case, so a path in another case is a 404 of the pages', async () => {
      await expectPagesNotFound(
        conformRequest(server),
        ['/API/items', '/Streaming', '/DOCS', '/API/big/2', '/Api/items/last'],
        'https://allowed.example',
      );
      // The kit's own routes too.
      await expectPagesNotFound(conformRequest(server), ['/HEALTHZ', '/OpenAPI.json', '/Metrics']);
      // Under a JSON path, a case that no route has is the JSON 404, never the pages' 404.
      for (const path of ['/api/ITEMS', '/api/Items/last']) {
        expectErrorBody(await conformRequest(server).get(path), 404);
      }
    });

    it('answers a write at a path in another case with 404, changing nothing', async () => {
      const fixture = fixtureService();
      const write = fixture.request(fixture.app.callback());
      for (const path of ['/API/items', '/Api/items']) {
        const res = await write.post(path).send({ name: 'second' });
        expect(res.status, path).to.equal(404);
      }
      expectErrorBody(await write.delete('/api/items/LAST'), 404);
      expect(fixture.items.map((item) => item.name)).to.deep.equal(['first']);
    });
  });
});
