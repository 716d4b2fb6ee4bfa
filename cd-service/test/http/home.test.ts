import { expect } from 'chai';
// Plain supertest: `/` is no route of the JSON API, so the OpenAPI conformance check (helpers.ts) has nothing to say about it.
import { expectAsciiPages } from 'service-kit/testing';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { type StoreHandle, sqliteFactory } from '../stores.js';

describe('the pages (the service has no home page: its one page is /docs)', () => {
  let handle: StoreHandle;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  before(async () => {
    handle = await sqliteFactory.open();
    app = createApp({ store: handle.store }).callback();
  });
  after(() => handle.dispose());

  it('sends the reader to the API reference with 303 See Other', async () => {
    const res = await request(app).get('/').expect(303);
    expect(res.headers.location).to.equal('/docs');
    expect(res.headers['cache-control']).to.equal('public, max-age=300');
    expect(res.text).to.equal('Redirecting to /docs.');
    const docs = await request(app)
      .get(res.headers.location as string)
      .expect(200);
    expect(docs.headers['content-type']).to.match(/^text\/html/);
    expect(docs.text).to.include('CD Collection API reference');
  });

  it('/docs is ASCII, which V8 and Node hash and write on their fast paths', async () => {
    await expectAsciiPages(request(app), [['/docs', 200]]);
  });
});
