import { expect } from 'chai';
import { createServiceApp, describeApi, Router } from 'service-kit';
import request from 'supertest';
import { API_INFO } from '../../src/app.js';
import { checkDestinationName, destinationParam } from '../../src/routes/params.js';

/** What a route of the kit's router sees of its parameter, and what destinationParam makes of it. */
function probe() {
  const router = new Router().get('/x/:destination', (ctx) => {
    let parsed: unknown;
    try {
      parsed = destinationParam(ctx);
    } catch (error) {
      parsed = { status: (error as { status: number }).status, message: (error as Error).message };
    }
    ctx.body = { param: ctx.params.destination, captures: ctx.captures, parsed };
  });
  const api = describeApi(API_INFO, []);
  const parts = { service: 'probe', api, jsonPaths: ['/x'], apiRouters: [router] };
  return createServiceApp(new URL('../../src/app.ts', import.meta.url).href, parts).callback();
}

describe('destinationParam', () => {
  const app = probe();

  it('relies on @koa/router 15 keeping a parameter that does not decode as raw text', async () => {
    // Were the router to throw instead, this would be a 500; were it to decode "%25" twice, a wrong match.
    const res = await request(app).get('/x/%E0%A4%A').expect(200);
    expect(res.body.param).to.equal('%E0%A4%A');
    expect(res.body.captures).to.deep.equal(['%E0%A4%A']);
    expect(res.body.parsed).to.deep.equal({
      status: 400,
      message: 'The destination is not valid percent-encoding',
    });
  });

  it('decodes from the raw capture exactly once', async () => {
    const once = await request(app).get('/x/New%20York').expect(200);
    expect(once.body).to.deep.include({ param: 'New York', parsed: 'New York' });
    // "%2541" is "%41" once decoded: a name with "%", which no destination has, not "A".
    const twice = await request(app).get('/x/%2541').expect(200);
    expect(twice.body.param).to.equal('%41');
    expect(twice.body.parsed.status).to.equal(400);
  });
});

describe('checkDestinationName', () => {
  it('accepts what a destination name may hold', () => {
    for (const name of [
      'New York',
      'rio-de-janeiro',
      'São Paulo',
      "St. John's",
      'Xi’an',
      'Zürich',
      '東京',
      'a'.repeat(100),
    ]) {
      expect(checkDestinationName(name)).to.equal(name);
    }
  });

  it('refuses characters no destination name can contain, and names over 100 characters', () => {
    for (const name of [
      '<b>',
      'a>b',
      'a/b',
      'a;b',
      'a\u0000b',
      'a\nb',
      'a\tb',
      '%41',
      'a?b',
      'a#b',
      '',
      'a'.repeat(101),
    ]) {
      expect(() => checkDestinationName(name), JSON.stringify(name)).to.throw(/The destination/);
    }
  });

  it('counts characters, not UTF-16 units', () => {
    // U+20000 is a CJK letter outside the Basic Multilingual Plane: 2 UTF-16 units each.
    const sixty = '\u{20000}'.repeat(60);
    expect(sixty.length).to.equal(120);
    expect(checkDestinationName(sixty)).to.equal(sixty);
    expect(() => checkDestinationName('\u{20000}'.repeat(101))).to.throw(/at most 100/);
  });
});
