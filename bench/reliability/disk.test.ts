import { execFileSync } from 'node:child_process';
import { Agent, request } from 'node:http';
import { expect } from 'chai';
import { type RunningProcess, startService } from '../src/process.js';
import { cdDatabase, freshCdFile } from './cd-store.js';

/** How far the service's files may grow once it runs (RLIMIT_FSIZE): a disk that fills up. */
const FILE_LIMIT = 1024 * 1024;
const MAX_WRITES = 5000;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { id?: string; title?: string; error?: unknown; status?: unknown };
}

function call(
  agent: Agent,
  url: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string | number> =
      text === undefined
        ? {}
        : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) };
    const req = request(url + path, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks).toString();
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: raw ? JSON.parse(raw) : {},
        });
      });
    });
    req.on('error', reject);
    req.end(text);
  });
}

describe('cd-service on a disk that fills up (RLIMIT_FSIZE)', function () {
  this.timeout(120_000);
  const file = freshCdFile();
  let service: RunningProcess;
  const logs: string[] = [];
  after(() => service?.stop('SIGKILL'));

  it('answers writes 503 with Retry-After and the error body, logs the cause, keeps serving reads, loses no acknowledged write', async () => {
    service = await startService('cd-service', { CD_DB_PATH: file, CD_SEED: 'false' });
    service.child.stdout?.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
    // From now on no file of the service may grow past FILE_LIMIT bytes: the WAL fills up.
    execFileSync('prlimit', ['--pid', String(service.pid), `--fsize=${FILE_LIMIT}:${FILE_LIMIT}`]);
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const acknowledged = new Map<string, Answer['body']>();
    const refused: string[] = [];
    let first503: Answer | undefined;
    for (let n = 0; n < MAX_WRITES && refused.length < 20; n += 4) {
      const batch = await Promise.all(
        [0, 1, 2, 3].map((i) => {
          const title = `Disk ${n + i} ${'x'.repeat(150)}`;
          return call(agent, service.url, 'POST', '/cds', {
            title,
            artist: 'Disk Artist',
            genre: 'Rock',
            releaseYear: 1999,
          }).then((res) => ({ res, title }));
        }),
      );
      for (const { res, title } of batch) {
        expect([201, 503], JSON.stringify(res.body)).to.include(res.status);
        if (res.status === 201) acknowledged.set(res.body.id as string, res.body);
        else {
          first503 ??= res;
          refused.push(title);
        }
      }
    }
    console.log(
      `      ${acknowledged.size} writes acknowledged, then ${refused.length} answered 503`,
    );
    expect(
      first503,
      `no 503 after ${MAX_WRITES} writes under a ${FILE_LIMIT} B file limit`,
    ).to.not.equal(undefined);
    const unavailable = first503 as Answer;
    expect(unavailable.headers['content-type']).to.match(/^application\/json/);
    expect(unavailable.headers['retry-after']).to.match(/^\d+$/);
    expect(unavailable.body).to.deep.equal({
      error: 'The database cannot take writes now; try again later',
      status: 503,
    });
    const causes = logs
      .join('')
      .split('\n')
      .filter((line) => line.includes('"level":"error"'))
      .map((line) => JSON.parse(line) as { err?: { code?: string; message?: string } });
    expect(causes.length).to.be.greaterThan(0);
    expect(causes[0]?.err?.code).to.match(/^SQLITE_(FULL|IOERR)/);
    console.log(`      logged: ${causes[0]?.err?.code}: ${causes[0]?.err?.message}`);

    // Reads go on: every acknowledged CD, one by one and in the list; the health check.
    const list = await call(agent, service.url, 'GET', '/cds?limit=1000');
    expect(list.status).to.equal(200);
    expect((list.body as unknown as { id: string }[]).map((cd) => cd.id)).to.have.members([
      ...acknowledged.keys(),
    ]);
    for (const [id, cd] of [...acknowledged].slice(0, 20)) {
      expect((await call(agent, service.url, 'GET', `/cds/${id}`)).body).to.deep.equal(cd);
    }
    expect((await call(agent, service.url, 'GET', '/healthz')).status).to.equal(200);
    expect(service.exited()).to.equal(false);
    agent.destroy();
    // It still shuts down cleanly: nothing is left to write.
    await service.stop('SIGTERM');
    expect(service.child.exitCode).to.equal(0);

    // On a disk with room again: every acknowledged write, none of the refused ones, intact.
    service = await startService('cd-service', { CD_DB_PATH: file, CD_SEED: 'false' });
    const stored = (await (await fetch(`${service.url}/cds?limit=1000`)).json()) as {
      id: string;
      title: string;
    }[];
    expect(stored.map((cd) => cd.id)).to.have.members([...acknowledged.keys()]);
    expect(stored.filter((cd) => refused.includes(cd.title))).to.deep.equal([]);
    await service.stop();
    const db = cdDatabase(file);
    try {
      expect(db.pragma('integrity_check', { simple: true })).to.equal('ok');
    } finally {
      db.close();
    }
  });
});
