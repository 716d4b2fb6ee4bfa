import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { InvalidCd, StoreUnavailable, VersionMismatch } from '../../src/cd/errors.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import type { CdStore } from '../../src/store/store.js';
import { captureLogger, expectErrorBody, makeCdInput, makeRecord, request } from '../helpers.js';

describe('HTTP: the domain and store errors as answers', () => {
  let store: CdStore;
  beforeEach(() => {
    store = openSqliteStore(':memory:');
  });
  afterEach(async () => {
    await store.close();
  });

  /** The app over the store, some of whose operations fail as given. */
  const failing = (overrides: Partial<CdStore>, logger = captureLogger()) =>
    createApp({ store: { ...store, ...overrides }, logger }).callback();

  it('answers an invalid CD with 400, its message and each field', async () => {
    const details = [{ field: 'releaseYear', message: 'must be a number' }];
    const refused = new InvalidCd('Invalid CD: releaseYear must be a number', details);
    const app = failing({ insert: () => Promise.reject(refused) });
    const res = await request(app).post('/cds').send(makeCdInput());
    expectErrorBody(res, 400);
    expect(res.body).to.deep.equal({
      error: 'Invalid CD: releaseYear must be a number',
      status: 400,
      details,
    });
    expect(res.headers['cache-control']).to.equal('no-store');
    expect(res.headers.location).to.equal(undefined);
    expect(res.headers.etag).to.equal(undefined);
  });

  it('answers a CD changed under a conditional write with 412, saying nothing was changed', async () => {
    const { cd } = await store.insert(makeRecord());
    const app = failing({
      update: () => Promise.reject(new VersionMismatch(cd.id)),
      delete: () => Promise.reject(new VersionMismatch(cd.id)),
    });
    const put = await request(app)
      .put(`/cds/${cd.id}`)
      .set('If-Match', '"1"')
      .send({ title: 'Changed' });
    const del = await request(app).delete(`/cds/${cd.id}`).set('If-Match', '"1"');
    for (const res of [put, del]) {
      expectErrorBody(res, 412);
      expect(res.body).to.deep.equal({
        error: `The CD ${cd.id} changed meanwhile: If-Match or If-None-Match no longer holds; nothing was changed: read it again (GET) and send its new ETag`,
        status: 412,
      });
      expect(res.headers.etag).to.equal(undefined);
    }
  });

  it('answers a store that cannot serve with 503, its message and Retry-After, and logs the cause', async () => {
    const cause = new Error('disk I/O error: /secret/path');
    const down = new StoreUnavailable('The database cannot be read now; try again later', 7, {
      cause,
    });
    const logger = captureLogger();
    const app = failing(
      { list: () => Promise.reject(down), get: () => Promise.reject(down) },
      logger,
    );
    for (const path of ['/cds', '/cds/0b7c7f0e-8d4e-4f7a-9a53-6f0e2a1c5b3d']) {
      const res = await request(app).get(path);
      expectErrorBody(res, 503);
      expect(res.body, path).to.deep.equal({
        error: 'The database cannot be read now; try again later',
        status: 503,
      });
      expect(res.headers['retry-after'], path).to.equal('7');
      expect(res.headers['cache-control'], path).to.equal('no-store');
      expect(JSON.stringify(res.body)).not.to.include('secret');
    }
    const logged = logger.lines.filter((line) => line.level === 'error');
    expect(logged).to.have.length(2);
    expect(logged[0]).to.include({
      message: 'The database cannot be read now; try again later',
      path: '/cds',
    });
    const err = logged[0]?.err as { type?: string; stack?: string };
    expect(err.type).to.equal('StoreUnavailable');
    expect(err.stack).to.include('caused by: Error: disk I/O error: /secret/path');
  });

  it('answers any other error with the generic 500', async () => {
    const app = failing({ list: () => Promise.reject(new TypeError('x is undefined')) });
    const res = await request(app).get('/cds');
    expectErrorBody(res, 500);
    expect(res.body).to.deep.equal({ error: 'Internal Server Error', status: 500 });
    expect(res.headers['retry-after']).to.equal(undefined);
  });
});
