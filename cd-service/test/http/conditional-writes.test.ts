import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import type { Cd } from '../../src/cd/schema.js';
import { appEachTest } from '../fixtures.js';
import { expectErrorBody, makeCdInput, request } from '../helpers.js';
import { describeEachStore } from '../stores.js';

const STRONG_TAG = /^"[1-9][0-9]*"$/;

describeEachStore('conditional writes', (factory) => {
  const fixture = appEachTest(factory);

  const create = async (overrides = {}) => {
    const res = await request(fixture.app).post('/cds').send(makeCdInput(overrides)).expect(201);
    return { cd: res.body as Cd, etag: res.headers.etag as string };
  };
  const read = (id: string) => request(fixture.app).get(`/cds/${id}`).expect(200);
  const put = (id: string, body: object, ifMatch?: string) => {
    const req = request(fixture.app).put(`/cds/${id}`).send(body);
    return ifMatch === undefined ? req : req.set('If-Match', ifMatch);
  };
  const del = (id: string, ifMatch?: string) => {
    const req = request(fixture.app).delete(`/cds/${id}`);
    return ifMatch === undefined ? req : req.set('If-Match', ifMatch);
  };

  it('gives a CD a strong ETag from its version: on POST, GET and PUT, the same everywhere', async () => {
    const { cd, etag } = await create();
    expect(etag).to.match(STRONG_TAG);
    expect((await read(cd.id)).headers.etag).to.equal(etag);
    const changed = await put(cd.id, { title: 'Changed' }).expect(200);
    expect(changed.headers.etag).to.match(STRONG_TAG).and.not.equal(etag);
    const again = await read(cd.id);
    expect(again.headers.etag).to.equal(changed.headers.etag);
    expect(again.body).to.deep.equal(changed.body);
    // Another fixture.app on the same store (a replica) gives the same tag.
    const replica = createApp({ store: fixture.handle.store }).callback();
    const there = await request(replica).get(`/cds/${cd.id}`).expect(200);
    expect(there.headers.etag).to.equal(changed.headers.etag);
  });

  it('answers a matching If-None-Match with 304, until the CD changes', async () => {
    const { cd, etag } = await create();
    await request(fixture.app).get(`/cds/${cd.id}`).set('If-None-Match', etag).expect(304);
    await put(cd.id, { genre: 'Other' }).expect(200);
    const changed = await request(fixture.app)
      .get(`/cds/${cd.id}`)
      .set('If-None-Match', etag)
      .expect(200);
    expect(changed.body.genre).to.equal('Other');
  });

  it('sends a CD over the compression threshold uncompressed, so that its strong tag names its bytes', async () => {
    const long = '音'.repeat(200);
    const { cd, etag } = await create({ title: long, artist: long, genre: long });
    for (const encoding of ['br', 'gzip', 'identity']) {
      const res = await request(fixture.app)
        .get(`/cds/${cd.id}`)
        .set('Accept-Encoding', encoding)
        .expect(200);
      expect(Number(res.headers['content-length']), encoding).to.be.above(1024);
      expect(res.headers['content-encoding'], encoding).to.equal(undefined);
      expect(res.headers.etag, encoding).to.equal(etag);
    }
    const written = await put(cd.id, { releaseYear: 1999 }).set('Accept-Encoding', 'gzip');
    expect(written.headers['content-encoding']).to.equal(undefined);
  });

  it('writes when If-Match names the current version: one tag, a list, or *', async () => {
    const { cd, etag } = await create();
    const first = await put(cd.id, { title: 'One' }, etag).expect(200);
    const second = await put(cd.id, { title: 'Two' }, `"999", ${first.headers.etag}`).expect(200);
    const third = await put(cd.id, { title: 'Three' }, '*').expect(200);
    expect(
      new Set([etag, first.headers.etag, second.headers.etag, third.headers.etag]).size,
    ).to.equal(4);
    await del(cd.id, third.headers.etag).expect(204);
    await request(fixture.app).get(`/cds/${cd.id}`).expect(404);
  });

  it('answers 412 and changes nothing when If-Match names no current version', async () => {
    const { cd, etag } = await create({ title: 'Kept' });
    const current = await put(cd.id, { genre: 'Moved on' }).expect(200);
    const before = current.body;
    for (const ifMatch of [etag, '"nope"', `W/${current.headers.etag}`, '"1", "3"', '']) {
      for (const res of [await put(cd.id, { title: 'Lost' }, ifMatch), await del(cd.id, ifMatch)]) {
        expect(res.status, `If-Match: ${ifMatch}`).to.equal(412);
        expectErrorBody(res, 412);
        expect(res.headers.etag).to.equal(undefined);
      }
    }
    const after = await read(cd.id);
    expect(after.body).to.deep.equal(before);
    expect(after.headers.etag).to.equal(current.headers.etag);
  });

  it('says what was wrong in a 412: a weak tag, an If-Match it could not read, a CD that changed', async () => {
    const { cd, etag } = await create();
    const weak = `W/${etag}`;
    for (const res of [
      await put(cd.id, { title: 'Lost' }, weak),
      await del(cd.id, weak),
      await request(fixture.app).get(`/cds/${cd.id}`).set('If-Match', weak),
    ]) {
      expectErrorBody(res, 412);
      expect(res.body.error).to.match(/weak tag .*never matches: If-Match compares strongly/);
      expect(res.body.error).to.not.match(/has changed/);
    }
    const unread = await request(fixture.app).get(`/cds/${cd.id}`).set('If-Match', '1');
    expectErrorBody(unread, 412);
    expect(unread.body.error).to.match(/^If-Match could not be read/);
    const changed = await put(cd.id, { title: 'Lost' }, '"99"');
    expect(changed.body.error).to.equal(
      `The CD ${cd.id} has changed since the version If-Match names; nothing was changed: read it again (GET) and send its new ETag`,
    );
    const stale = await request(fixture.app).get(`/cds/${cd.id}`).set('If-Match', '"99"');
    expect(stale.body.error).to.not.match(/nothing was changed/);
    expect((await read(cd.id)).headers.etag).to.equal(etag);
  });

  it('answers 404 for an unknown CD whatever If-Match and If-None-Match say', async () => {
    const id = randomUUID();
    for (const ifMatch of ['"1"', '*', '"nope"', 'not a tag', undefined]) {
      expectErrorBody(await put(id, { title: 'X' }, ifMatch).expect(404), 404);
      expectErrorBody(await del(id, ifMatch).expect(404), 404);
    }
    for (const ifNoneMatch of ['"1"', '*', 'not a tag']) {
      for (const req of [
        put(id, { title: 'X' }),
        del(id),
        request(fixture.app).get(`/cds/${id}`),
      ]) {
        expectErrorBody(await req.set('If-None-Match', ifNoneMatch).expect(404), 404);
      }
    }
    const { cd, etag } = await create();
    await del(cd.id).expect(204);
    expectErrorBody(await put(cd.id, { title: 'X' }, etag).expect(404), 404);
    expectErrorBody(await del(cd.id, etag).expect(404), 404);
  });

  it('answers a malformed If-Match or If-None-Match on a write with a 400, changing nothing, and on a read as naming no tag', async () => {
    const { cd } = await create({ title: 'Kept' });
    for (const field of ['If-Match', 'If-None-Match']) {
      for (const malformed of ['1', '"1" "2"', 'W/1']) {
        for (const req of [put(cd.id, { title: 'Lost' }), del(cd.id)]) {
          const res = await req.set(field, malformed).expect(400);
          expect(res.body.details, `${field}: ${malformed}`).to.deep.equal([
            { field, message: 'is not * nor a list of entity tags' },
          ]);
        }
        const get = request(fixture.app).get(`/cds/${cd.id}`).set(field, malformed);
        await get.expect(field === 'If-Match' ? 412 : 200);
      }
    }
    expect((await read(cd.id)).body.title).to.equal('Kept');
  });

  it('answers 412 and changes nothing when If-None-Match names the CD as it is: *, its tag, weak or strong', async () => {
    const { cd, etag } = await create({ title: 'Kept' });
    for (const ifNoneMatch of ['*', etag, `W/${etag}`, `"99", ${etag}`]) {
      for (const req of [put(cd.id, { title: 'Lost' }), del(cd.id)]) {
        const res = await req.set('If-None-Match', ifNoneMatch);
        expect(res.status, `If-None-Match: ${ifNoneMatch}`).to.equal(412);
        expectErrorBody(res, 412);
      }
    }
    const after = await read(cd.id);
    expect(after.body.title).to.equal('Kept');
    expect(after.headers.etag).to.equal(etag);
  });

  it('writes when If-None-Match names other versions only, and If-Match, evaluated first, holds', async () => {
    const { cd, etag } = await create();
    const first = await put(cd.id, { title: 'One' }).set('If-None-Match', '"99", W/"7", "x"');
    expect(first.status).to.equal(200);
    const second = await put(cd.id, { title: 'Two' }, first.headers.etag)
      .set('If-None-Match', etag)
      .expect(200);
    const current = second.headers.etag as string;
    // If-Match holds, If-None-Match names the current version: 412.
    await put(cd.id, { title: 'Lost' }, current).set('If-None-Match', current).expect(412);
    // If-Match fails: 412 whatever If-None-Match says.
    await put(cd.id, { title: 'Lost' }, etag).set('If-None-Match', etag).expect(412);
    expect((await read(cd.id)).body.title).to.equal('Two');
    await del(cd.id, current).set('If-None-Match', etag).expect(204);
    await request(fixture.app).get(`/cds/${cd.id}`).expect(404);
  });

  it('answers GET and HEAD with 304 when If-None-Match names the CD, even beside Cache-Control: no-cache', async () => {
    const { cd, etag } = await create();
    for (const method of ['get', 'head'] as const) {
      for (const ifNoneMatch of ['*', etag, `W/${etag}`, `"99", ${etag}`]) {
        for (const cacheControl of [undefined, 'no-cache']) {
          const req = request(fixture.app)
            [method](`/cds/${cd.id}`)
            .set('If-None-Match', ifNoneMatch);
          if (cacheControl) req.set('Cache-Control', cacheControl);
          const res = await req;
          expect(res.status, `${method} ${ifNoneMatch} ${cacheControl}`).to.equal(304);
          expect(res.headers.etag).to.equal(etag);
          expect(res.headers['cache-control']).to.equal('no-cache');
        }
      }
    }
    const other = await request(fixture.app)
      .get(`/cds/${cd.id}`)
      .set('If-None-Match', '"99"')
      .set('Cache-Control', 'no-cache')
      .expect(200);
    expect(other.body).to.deep.equal(cd);
  });

  it('answers a GET whose If-Match names no current version with 412, before If-None-Match', async () => {
    const { cd, etag } = await create();
    const current = (await put(cd.id, { title: 'Changed' }).expect(200)).headers.etag as string;
    const get = () => request(fixture.app).get(`/cds/${cd.id}`);
    expectErrorBody(await get().set('If-Match', etag), 412);
    expectErrorBody(await get().set('If-Match', etag).set('If-None-Match', current), 412);
    await get().set('If-Match', current).expect(200);
    await get().set('If-Match', '*').set('If-None-Match', current).expect(304);
  });

  it('decides in order: the token, the id, the CD, the preconditions, then the body', async () => {
    const token = 'order-token';
    const app = createApp({ store: fixture.handle.store, apiToken: token }).callback();
    const auth = { Authorization: `Bearer ${token}` };
    const { cd: existing } = await create();
    const unknown = randomUUID();
    const badBody = () => ({ 'Content-Type': 'application/json' });
    const write = (
      id: string,
      headers: Record<string, string>,
      method: 'put' | 'delete' = 'put',
    ) =>
      method === 'put'
        ? request(app).put(`/cds/${id}`).set(badBody()).set(headers).send('{"title":')
        : request(app).delete(`/cds/${id}`).set(headers);
    const stale = { 'If-Match': '"99"', 'If-None-Match': '*' };
    for (const method of ['put', 'delete'] as const) {
      const status = async (id: string, headers: Record<string, string>) =>
        (await write(id, headers, method)).status;
      expect(await status('nope', stale), method).to.equal(401);
      expect(await status('nope', { ...auth, ...stale }), method).to.equal(400);
      expect(await status(unknown, { ...auth, ...stale }), method).to.equal(404);
      expect(await status(unknown, { ...auth, 'If-Match': 'malformed' }), method).to.equal(404);
      expect(await status(existing.id, { ...auth, 'If-Match': '"99"' }), method).to.equal(412);
      expect(await status(existing.id, { ...auth, 'If-None-Match': '*' }), method).to.equal(412);
      const malformed = await write(existing.id, { ...auth, 'If-Match': 'malformed' }, method);
      expect(malformed.body.details, method).to.deep.equal([
        { field: 'If-Match', message: 'is not * nor a list of entity tags' },
      ]);
    }
    // The body is judged last: a body that is not JSON, or malformed JSON, after a 412.
    const textBody = await request(app)
      .put(`/cds/${existing.id}`)
      .set(auth)
      .set('If-Match', '"99"')
      .set('Content-Type', 'text/plain')
      .send('x');
    expect(textBody.status).to.equal(412);
    expectErrorBody(await write(existing.id, { ...auth, 'If-Match': '"1"' }), 400);
    expect((await read(existing.id)).body).to.deep.equal(existing);
  });

  it('documents ETag, If-Match and 412 in the OpenAPI document', async () => {
    const { body: document } = await request(fixture.app).get('/openapi.json').expect(200);
    const operations = document.paths['/cds/{id}'];
    expect(operations.get.responses['200'].headers).to.have.property('ETag');
    expect(document.paths['/cds'].post.responses['201'].headers).to.have.property('ETag');
    for (const method of ['put', 'delete']) {
      const operation = operations[method];
      expect(operation.responses, method).to.have.property('412');
      expect(
        operation.parameters.find((p: { name: string }) => p.name === 'If-Match'),
        method,
      ).to.include({ in: 'header' });
    }
    expect(operations.put.responses['200'].headers).to.have.property('ETag');
  });
});
