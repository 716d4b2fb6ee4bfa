import { expect } from 'chai';
import type { Cd } from '../../src/cd/schema.js';
import { appEachTest } from '../fixtures.js';
import { makeCdInput, request } from '../helpers.js';
import { describeEachStore } from '../stores.js';

describeEachStore('caching', (factory) => {
  const fixture = appEachTest(factory);

  const create = async (overrides = {}): Promise<Cd> =>
    (await request(fixture.app).post('/cds').send(makeCdInput(overrides)).expect(201)).body;

  it('gives each route the Cache-Control that fits it', async () => {
    const cd = await create();
    const cases: [string, Promise<{ headers: Record<string, string> }>, RegExp][] = [
      ['GET /cds', request(fixture.app).get('/cds'), /^no-cache$/],
      ['GET /cds/:id', request(fixture.app).get(`/cds/${cd.id}`), /^no-cache$/],
      ['POST /cds', request(fixture.app).post('/cds').send(makeCdInput()), /^no-store$/],
      [
        'PUT /cds/:id',
        request(fixture.app).put(`/cds/${cd.id}`).send({ genre: 'x' }),
        /^no-store$/,
      ],
      ['GET /healthz', request(fixture.app).get('/healthz'), /^no-store$/],
      ['GET /openapi.json', request(fixture.app).get('/openapi.json'), /^public, max-age=\d+$/],
      ['GET /docs', request(fixture.app).get('/docs'), /^public, max-age=\d+$/],
      ['GET /nope', request(fixture.app).get('/nope'), /^no-store$/],
      ['GET /cds?limit=0', request(fixture.app).get('/cds?limit=0'), /^no-store$/],
    ];
    for (const [label, response, expected] of cases) {
      expect((await response).headers['cache-control'], label).to.match(expected);
    }
    const deleted = await request(fixture.app).delete(`/cds/${cd.id}`).expect(204);
    expect(deleted.headers['cache-control']).to.equal('no-store');
  });

  it('answers 304 while a CD and the list are unchanged, a new ETag once they change', async () => {
    const cd = await create();
    const one = await request(fixture.app).get(`/cds/${cd.id}`).expect(200);
    const list = await request(fixture.app).get('/cds').expect(200);
    // A CD's tag is strong (its version), a list's weak.
    expect(one.headers.etag).to.match(/^"\d+"$/);
    expect(list.headers.etag).to.match(/^W\//);
    for (const [path, etag] of [
      [`/cds/${cd.id}`, one.headers.etag],
      ['/cds', list.headers.etag],
    ] as const) {
      await request(fixture.app)
        .get(path)
        .set('If-None-Match', etag ?? '')
        .expect(304);
    }
    await request(fixture.app).put(`/cds/${cd.id}`).send({ title: 'Changed' }).expect(200);
    const changed = await request(fixture.app)
      .get(`/cds/${cd.id}`)
      .set('If-None-Match', one.headers.etag ?? '')
      .expect(200);
    expect(changed.body.title).to.equal('Changed');
    expect(changed.headers.etag).to.not.equal(one.headers.etag);
    await request(fixture.app)
      .get('/cds')
      .set('If-None-Match', list.headers.etag ?? '')
      .expect(200);
  });
});
