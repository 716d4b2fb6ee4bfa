import { expect } from 'chai';
import Koa from 'koa';
import request from 'supertest';
import { readQueryInOnePass } from '../src/middleware/well-formed.js';
import { expectErrorBody } from '../src/testing/http.js';
import { fixtureService } from './fixture.js';
import { rawExchange, servedFixture } from './raw-http.js';

describe('ctx.query read in one pass', () => {
  const echo = (app: Koa) =>
    app.use((ctx) => {
      ctx.body = JSON.stringify(Object.entries(ctx.query));
    });
  const koas = echo(new Koa()).callback();
  const app = new Koa();
  readQueryInOnePass(app);
  const ours = echo(app).callback();

  it("reads every query as Koa's own ctx.query does", async () => {
    const many = Array.from({ length: 3000 }, (_, i) => `p${i % 1500}=${i}`).join('&');
    for (const query of [
      '',
      'a=1',
      'a=1&b=&a=2&a',
      '__proto__=x&constructor=1',
      'q=%C3%A9+t&q',
      many,
    ]) {
      const expected = await request(koas).get(`/?${query}`);
      const actual = await request(ours).get(`/?${query}`);
      expect(actual.text, query.slice(0, 40)).to.equal(expected.text);
    }
  });

  it("never asks for a name's values anew (a scan of the whole query each time)", async () => {
    const { getAll } = URLSearchParams.prototype;
    let asked = 0;
    URLSearchParams.prototype.getAll = function (this: URLSearchParams, name: string) {
      asked += 1;
      return getAll.call(this, name);
    };
    try {
      expect((await request(ours).get('/?a=1&b=2&a=3')).text).to.equal(
        '[["a",["1","3"]],["b","2"]]',
      );
      expect(asked).to.equal(0);
      await request(koas).get('/?a=1&b=2&a=3');
      expect(asked, "Koa's own").to.be.above(0);
    } finally {
      URLSearchParams.prototype.getAll = getAll;
    }
  });

  it("keeps Koa's setter, and reads the query again once it changed", async () => {
    const app = new Koa();
    readQueryInOnePass(app);
    app.use((ctx) => {
      const before = ctx.query.a;
      ctx.query = { a: ['x', 'y'] };
      ctx.body = { before, after: ctx.query.a, querystring: ctx.querystring };
    });
    const res = await request(app.callback()).get('/?a=1');
    expect(res.body).to.deep.equal({ before: '1', after: ['x', 'y'], querystring: 'a=x&a=y' });
  });
});

describe('well-formed requests', () => {
  const { app, request } = fixtureService();
  const server = app.callback();

  it('answers a query with broken percent-encoding with 400 naming the parameter', async () => {
    const res = await request(server).get('/api/items?name=%ZZ');
    expectErrorBody(res, 400);
    expect(res.body.details).to.deep.equal([
      { field: 'name', message: 'is not valid percent-encoding' },
    ]);
    // On a page, the error page in the site's layout, although the query was refused before any route.
    const page = await request(server).get('/?q=%E0%A4%A');
    expect(page.status).to.equal(400);
    expect(page.headers['content-type']).to.match(/^text\/html/);
    expect(page.text).to.include('The query parameter q is not valid percent-encoding');
  });

  describe('Host', () => {
    const served = servedFixture();

    it('answers an HTTP/1.1 request without Host with the JSON error body', async () => {
      // Even for a URL whose answer the cache keeps.
      expect((await fetch(`${served.url}/api/items`)).status).to.equal(200);
      const answer = await rawExchange(
        served.url,
        'GET /api/items HTTP/1.1\r\nConnection: close\r\n\r\n',
      );
      expect(answer).to.match(/^HTTP\/1\.1 400/);
      expect(answer).to.include('application/json');
      expect(answer).to.include('"status":400');
      expect(answer).to.match(/x-content-type-options: nosniff/i);
    });

    it('answers two Host headers, or a Host that is not host[:port], with 400 and the JSON error body (RFC 9112 section 3.2)', async () => {
      const ask = (hosts: string[], version = '1.1') =>
        rawExchange(
          served.url,
          `GET /api/items HTTP/${version}\r\n${hosts.map((host) => `Host: ${host}\r\n`).join('')}Connection: close\r\n\r\n`,
        );
      for (const hosts of [
        ['a.example', 'b.example'],
        ['a.example', 'a.example'],
        ['a b'],
        ['a.example/path'],
        ['a.example:80:80'],
        ['a.example:8o'],
        ['user@a.example'],
        ['[::1'],
        ['[not-ipv6]'],
        ['[::1]x'],
        ['a%zz'],
        [':80'],
        ['a"b'],
        ['a<b>'],
      ]) {
        for (const version of ['1.1', '1.0']) {
          const answer = await ask(hosts, version);
          expect(answer, `${version} ${hosts.join(' + ')}`).to.match(/^HTTP\/1\.1 400/);
          expect(answer).to.include('application/json');
          expect(answer).to.match(
            /"error":"(The Host header is not a valid host\[:port\]|A request may have only one Host header)"/,
          );
        }
      }
      for (const host of [
        'a.example',
        'A.Example:8080',
        '127.0.0.1:3000',
        '[::1]:3001',
        '[2001:db8::7]',
        '[v1.fe80::a+en1]',
        'xn--bcher-kva.example',
        'a_b.example',
        'a%41.example',
        'a.example:',
        'localhost',
      ]) {
        expect(await ask([host]), host).to.match(/^HTTP\/1\.1 200/);
      }
    });
  });
});
