import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { Cd } from '../../src/cd/schema.js';
import { readConfig } from '../../src/config.js';
import { serverEachTest } from '../fixtures.js';
import { makeCdInput } from '../helpers.js';
import { json, stopServer } from './child.js';

const seeds = JSON.parse(readFileSync(readConfig({}).seedFile, 'utf8')) as { title: string }[];

describe('the real server process (node --conditions=source --import tsx src/server.ts)', function () {
  // Some tests start the process twice; tsx compiles the sources at each start, which takes tens
  // of seconds on a loaded machine.
  this.timeout(120_000);
  const folder = serverEachTest();
  const start = folder.start;

  it('logs the real URL when PORT=0, warns that writes are open, and answers /healthz', async () => {
    const server = await start({ CD_SEED: 'false' });
    expect(server.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.url).not.to.match(/:0$/);
    const listening = server.logs.find((l) => l.message === 'cd-service listening');
    expect(listening).to.include({ level: 'info', service: 'cd-service', store: 'sqlite', cds: 0 });
    expect(
      server.logs.some((l) => l.level === 'warn' && /CD_API_TOKEN/.test(String(l.message))),
    ).to.equal(true);
    expect((await json(`${server.url}/healthz`)).body).to.deep.equal({
      status: 'ok',
      store: 'sqlite',
      writes: 'ok',
    });
  });

  it('protects writes when CD_API_TOKEN is set, without the warning', async () => {
    const server = await start({ CD_SEED: 'false', CD_API_TOKEN: 'token-123' });
    expect(server.logs.some((l) => l.level === 'warn')).to.equal(false);
    expect((await json(`${server.url}/cds`, 'POST', makeCdInput())).status).to.equal(401);
    const res = await fetch(`${server.url}/cds`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer token-123' },
      body: JSON.stringify(makeCdInput()),
    });
    expect(res.status).to.equal(201);
  });

  it('loads the sample collection on the first start only', async () => {
    expect(seeds.length).to.be.at.least(40);
    const first = await start({ CD_SEED: '' });
    const all = await json(`${first.url}/cds?limit=1000&fields=title`);
    expect(all.body.map((cd: { title: string }) => cd.title)).to.have.members(
      seeds.map((s) => s.title),
    );
    expect(first.logs.some((l) => l.message === 'loaded the sample collection')).to.equal(true);
    const some = (await json(`${first.url}/cds?limit=1`)).body[0] as Cd;
    expect((await json(`${first.url}/cds/${some.id}`, 'DELETE')).status).to.equal(204);
    expect(await stopServer(first)).to.equal(0);

    const second = await start({ CD_SEED: 'true' });
    expect(second.logs.some((l) => l.message === 'loaded the sample collection')).to.equal(false);
    const again = await json(`${second.url}/cds?limit=1000`);
    expect(again.headers.get('x-total-count')).to.equal(String(seeds.length - 1));
  });

  it('starts empty with CD_SEED=false', async () => {
    const server = await start({ CD_SEED: 'false' });
    const res = await json(`${server.url}/cds`);
    expect(res.body).to.deep.equal([]);
    expect(res.headers.get('x-total-count')).to.equal('0');
  });

  it('keeps everything across a graceful restart (SIGTERM closes the store, exit 0)', async () => {
    const server = await start({ CD_SEED: 'false' });
    const created: Cd[] = [];
    for (let i = 0; i < 5; i++)
      created.push((await json(`${server.url}/cds`, 'POST', makeCdInput())).body);
    const updated = (await json(`${server.url}/cds/${created[0]?.id}`, 'PUT', { title: 'Renamed' }))
      .body;
    expect(await stopServer(server, 'SIGTERM')).to.equal(0);
    expect(server.logs.some((l) => l.message === 'shutting down')).to.equal(true);
    expect(server.logs.at(-1)).to.include({ level: 'info', message: 'shut down' });

    const restarted = await start({ CD_SEED: 'false' });
    const all = (await json(`${restarted.url}/cds?sort=title`)).body as Cd[];
    const expected = [updated, ...created.slice(1)].sort((a, b) =>
      a.title < b.title ? -1 : a.title > b.title ? 1 : a.id < b.id ? -1 : 1,
    );
    expect(all).to.deep.equal(expected);
  });

  it('keeps every acknowledged write when killed with SIGKILL, even mid-traffic', async () => {
    const server = await start({ CD_SEED: 'false' });
    const url = `${server.url}/cds`;
    const created = await Promise.all(
      Array.from({ length: 100 }, (_, i) => json(url, 'POST', makeCdInput({ title: `kept ${i}` }))),
    );
    expect(created.map((r) => r.status)).to.deep.equal(Array(100).fill(201));
    const cds = created.map((r) => r.body as Cd);
    const updates = await Promise.all(
      cds.slice(0, 30).map((cd) => json(`${url}/${cd.id}`, 'PUT', { genre: 'Updated' })),
    );
    expect(updates.every((r) => r.status === 200)).to.equal(true);
    const deletes = await Promise.all(
      cds.slice(30, 40).map((cd) => json(`${url}/${cd.id}`, 'DELETE')),
    );
    expect(deletes.every((r) => r.status === 204)).to.equal(true);

    // More writes in flight; the process is killed as soon as 50 of them were acknowledged.
    const acked: Cd[] = [];
    await Promise.allSettled(
      Array.from({ length: 300 }, async (_, i) => {
        const res = await json(url, 'POST', makeCdInput({ title: `in flight ${i}` }));
        if (res.status === 201) {
          acked.push(res.body);
          if (acked.length === 50) server.child.kill('SIGKILL');
        }
      }),
    );
    expect(await server.exited).to.equal('SIGKILL');
    expect(acked.length).to.be.at.least(50);

    const restarted = await start({ CD_SEED: 'false' });
    const base = `${restarted.url}/cds`;
    for (const cd of cds.slice(0, 30)) {
      const res = await json(`${base}/${cd.id}`);
      expect(res.status).to.equal(200);
      expect(res.body.genre).to.equal('Updated');
    }
    for (const cd of cds.slice(30, 40))
      expect((await json(`${base}/${cd.id}`)).status).to.equal(404);
    for (const cd of [...cds.slice(40), ...acked]) {
      expect((await json(`${base}/${cd.id}`)).body).to.deep.equal(cd);
    }
    const total = Number((await json(`${base}?limit=1`)).headers.get('x-total-count'));
    expect(total)
      .to.be.at.least(90 + acked.length)
      .and.at.most(90 + 300);
  });

  it('uses MongoDB when MONGODB_URI is set, and exits 1 when it does not answer', async () => {
    let failure: unknown;
    await start({
      MONGODB_URI: 'mongodb://127.0.0.1:1/cds',
      MONGODB_CONNECT_TIMEOUT_MS: '0',
    }).catch((error) => {
      failure = error;
    });
    expect(String(failure)).to.match(/exited \(1\) before listening.*cd-service cannot start/);
  });

  it('refuses to start on a bad configuration, exit code 1', async () => {
    let failure: unknown;
    await start({ PORT: 'abc' }).catch((error) => {
      failure = error;
    });
    expect(String(failure)).to.match(/exited \(1\) before listening/);
    expect(String(failure)).to.include('cd-service cannot start');
    expect(String(failure)).to.include(
      'PORT must be a whole number from 0 to 65535, not \\"abc\\"',
    );
  });
});
