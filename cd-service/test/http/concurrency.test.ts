import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import type { Cd } from '../../src/cd/schema.js';
import { makeCdInput } from '../helpers.js';
import { json } from '../process/child.js';
import { describeEachStore, type StoreHandle } from '../stores.js';

interface Answer {
  status: number;
  etag: string | undefined;
  body: Record<string, unknown> | undefined;
}

/**
 * A request with exactly the headers given (node:http: fetch would add Cache-Control to a
 * conditional request), its JSON answer read.
 */
function send(url: string, method: string, headers: Record<string, string>, body?: unknown) {
  return new Promise<Answer>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      url,
      {
        method,
        headers: payload ? { ...headers, 'Content-Type': 'application/json' } : headers,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            etag: res.headers.etag,
            body: text ? JSON.parse(text) : undefined,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describeEachStore('concurrent requests on a listening server', (factory) => {
  let handle: StoreHandle;
  let server: Server;
  let url: string;

  beforeEach(async () => {
    handle = await factory.open();
    server = createApp({ store: handle.store }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cds`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await handle.dispose();
  });

  const all = async () => (await json(`${url}?limit=1000`)).body as Cd[];

  it('150 parallel creates: every one stored, ids unique', async () => {
    const results = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        json(url, 'POST', makeCdInput({ title: `parallel ${i}` })),
      ),
    );
    expect(results.map((r) => r.status)).to.deep.equal(Array(150).fill(201));
    const ids = results.map((r) => r.body.id as string);
    expect(new Set(ids).size).to.equal(150);
    const stored = new Map((await all()).map((cd) => [cd.id, cd]));
    expect([...stored.keys()]).to.have.members(ids);
    for (const result of results) expect(stored.get(result.body.id)).to.deep.equal(result.body);
  });

  it('parallel updates and creates: every 2xx is reflected', async () => {
    const cds = (
      await Promise.all(Array.from({ length: 100 }, () => json(url, 'POST', makeCdInput())))
    ).map((r) => r.body as Cd);
    const hot = cds[0] as Cd;
    const [updates, sameRecord, creates] = await Promise.all([
      Promise.all(
        cds.slice(1).map((cd, i) => json(`${url}/${cd.id}`, 'PUT', { title: `updated ${i}` })),
      ),
      Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          json(`${url}/${hot.id}`, 'PUT', { releaseYear: 1900 + i }),
        ),
      ),
      Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          json(url, 'POST', makeCdInput({ title: `late ${i}` })),
        ),
      ),
    ]);
    expect([...updates, ...sameRecord].every((r) => r.status === 200)).to.equal(true);
    expect(creates.every((r) => r.status === 201)).to.equal(true);

    const stored = new Map((await all()).map((cd) => [cd.id, cd]));
    expect(stored.size).to.equal(200);
    for (const update of updates)
      expect(stored.get(update.body.id)?.title).to.equal(update.body.title);
    for (const create of creates) expect(stored.get(create.body.id)).to.deep.equal(create.body);
    const years = sameRecord.map((r) => r.body.releaseYear);
    expect(years).to.include(stored.get(hot.id)?.releaseYear);
  });

  it('parallel deletes and updates of the same records stay consistent', async () => {
    const cds = (
      await Promise.all(Array.from({ length: 60 }, () => json(url, 'POST', makeCdInput())))
    ).map((r) => r.body as Cd);
    const results = await Promise.all(
      cds.flatMap((cd) => [
        json(`${url}/${cd.id}`, 'DELETE'),
        json(`${url}/${cd.id}`, 'PUT', { title: 'x' }),
      ]),
    );
    const deletes = results.filter((_, i) => i % 2 === 0);
    expect(deletes.every((r) => r.status === 204)).to.equal(true);
    expect(
      results.filter((_, i) => i % 2 === 1).every((r) => r.status === 200 || r.status === 404),
    ).to.equal(true);
    expect(await all()).to.deep.equal([]);
  });

  it('100 pairs of read-modify-write clients holding the same ETag: one 200 and one 412 a pair, no change lost', async () => {
    const cds = (
      await Promise.all(
        Array.from({ length: 100 }, (_, i) => json(url, 'POST', makeCdInput({ title: `cd ${i}` }))),
      )
    ).map((r) => r.body as Cd);
    /** Reads the CD, appends a mark to its title, and writes it back under the tag it read. */
    const appendOnce = async (id: string, mark: string, read?: Answer) => {
      const current = read ?? (await send(`${url}/${id}`, 'GET', {}));
      const title = `${current.body?.title} ${mark}`;
      return send(`${url}/${id}`, 'PUT', { 'If-Match': current.etag ?? '' }, { title });
    };
    // Both clients of each pair read first, so that they hold the same ETag; then all write at once.
    const reads = await Promise.all(
      cds.map(async (cd) => {
        const [a, b] = await Promise.all([
          send(`${url}/${cd.id}`, 'GET', {}),
          send(`${url}/${cd.id}`, 'GET', {}),
        ]);
        expect(a.etag).to.equal(b.etag);
        return [a, b] as const;
      }),
    );
    const writes = await Promise.all(
      cds.map((cd, i) => {
        const [a, b] = reads[i] as readonly [Answer, Answer];
        return Promise.all([appendOnce(cd.id, 'A', a), appendOnce(cd.id, 'B', b)]);
      }),
    );
    for (const [i, pair] of writes.entries()) {
      expect(pair.map((answer) => answer.status).sort(), `pair ${i}`).to.deep.equal([200, 412]);
    }
    // Each loser reads again and retries: its change is applied on top of the winner's.
    await Promise.all(
      writes.map(async (pair, i) => {
        const loser = pair[0].status === 412 ? 'A' : 'B';
        const retried = await appendOnce((cds[i] as Cd).id, loser);
        expect(retried.status).to.equal(200);
      }),
    );
    const stored = new Map((await all()).map((cd) => [cd.id, cd]));
    for (const [i, cd] of cds.entries()) {
      const [first, second] = writes[i]?.[0].status === 200 ? ['A', 'B'] : ['B', 'A'];
      expect(stored.get(cd.id)?.title).to.equal(`cd ${i} ${first} ${second}`);
    }
  });
});
