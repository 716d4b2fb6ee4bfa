import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import { serverEachTest } from '../fixtures.js';
import { json } from './child.js';

/** How far the server's files may grow once it runs (RLIMIT_FSIZE): a disk that fills up. */
const FILE_LIMIT = 1024 * 1024;

const hasPrlimit = (() => {
  try {
    execFileSync('prlimit', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('the real server on a disk that fills up', function () {
  this.timeout(120_000);
  const folder = serverEachTest({ CD_SEED: 'false' });

  before(function () {
    if (!hasPrlimit) this.skip();
  });

  it('says in /healthz that the store takes no writes, stays ready, and frees space by DELETE', async () => {
    const server = await folder.start();
    expect((await json(`${server.url}/healthz`)).body).to.deep.equal({
      status: 'ok',
      store: 'sqlite',
      writes: 'ok',
    });
    execFileSync('prlimit', [
      '--pid',
      String(server.child.pid),
      `--fsize=${FILE_LIMIT}:${FILE_LIMIT}`,
    ]);
    const created: string[] = [];
    let refused = 0;
    // Until the store stops taking writes (a few hundred at most under this limit).
    for (let n = 0; n < 5000 && refused < 10; n += 1) {
      const res = await json(`${server.url}/cds`, 'POST', {
        title: `Disk ${n} ${'x'.repeat(150)}`,
        artist: 'Disk Artist',
        genre: 'Rock',
        releaseYear: 1999,
      });
      expect([201, 503], JSON.stringify(res.body)).to.include(res.status);
      if (res.status === 201) created.push(res.body.id);
      else refused += 1;
    }
    expect(refused, `no write refused under a ${FILE_LIMIT} B file limit`).to.equal(10);

    const health = await json(`${server.url}/healthz`);
    expect(health.status).to.equal(200);
    expect(health.body).to.deep.equal({ status: 'ok', store: 'sqlite', writes: 'failing' });
    expect((await json(`${server.url}/readyz`)).status).to.equal(200);
    expect((await json(`${server.url}/cds?limit=1`)).status).to.equal(200);

    const deleted = [];
    for (const id of created.slice(0, 12)) {
      deleted.push((await json(`${server.url}/cds/${id}`, 'DELETE')).status);
    }
    expect(deleted).to.deep.equal(Array(12).fill(204));
    expect((await json(`${server.url}/healthz`)).body.writes).to.equal('ok');
  });
});
