import { Agent, request } from 'node:http';
import { expect } from 'chai';
import { type RunningProcess, startService } from '../src/process.js';
import { seeded } from '../src/synthetic.js';
import { cdDatabase, everyCd, freshCdFile } from './cd-store.js';

const CYCLES = Number(process.env.FAULT_CYCLES ?? 20);
const WRITERS = 16;

interface Cd {
  id: string;
  title: string;
  genre: string;
  updatedAt: string;
}

function post(
  agent: Agent,
  url: string,
  method: string,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Cd }> {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const req = request(
      url + path,
      {
        method,
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve({
              status: res.statusCode ?? 0,
              body: JSON.parse(Buffer.concat(chunks).toString()),
            });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

describe(`cd-service on SQLite, killed with SIGKILL ${CYCLES} times mid-write`, function () {
  this.timeout(CYCLES * 20_000);
  const file = freshCdFile();
  /** What the service acknowledged, per id: the last acknowledged state, and a write still in flight. */
  const acknowledged = new Map<string, { acked: Cd; inFlight?: { genre: string } }>();
  let checked = 0;
  let lost = 0;

  it('loses no acknowledged write, and the database stays intact', async () => {
    const random = seeded(42);
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const service: RunningProcess = await startService('cd-service', {
        CD_DB_PATH: file,
        CD_SEED: 'false',
      });
      // Everything acknowledged before is still there, with its acknowledged content.
      const stored = await everyCd<Cd>(service.url);
      for (const [id, { acked, inFlight }] of acknowledged) {
        checked++;
        const found = stored.get(id);
        const matches =
          found &&
          found.title === acked.title &&
          (found.genre === acked.genre || found.genre === inFlight?.genre);
        if (!matches) lost++;
        else acknowledged.set(id, { acked: found });
      }
      const agent = new Agent({ keepAlive: true, maxSockets: WRITERS });
      let stopped = false;
      const writer = async (writerIndex: number) => {
        let n = 0;
        while (!stopped) {
          n++;
          try {
            const mine = [...acknowledged.keys()].filter((_, i) => i % WRITERS === writerIndex);
            const id = mine[Math.floor(random() * mine.length)];
            if (id && random() < 0.5) {
              const genre = `Genre ${cycle}-${writerIndex}-${n}`;
              const entry = acknowledged.get(id);
              if (entry) entry.inFlight = { genre };
              const res = await post(agent, service.url, 'PUT', `/cds/${id}`, { genre });
              if (res.status === 200) acknowledged.set(id, { acked: res.body });
            } else {
              const res = await post(agent, service.url, 'POST', '/cds', {
                title: `Fault ${cycle}-${writerIndex}-${n}`,
                artist: 'Fault Artist',
                genre: 'Rock',
                releaseYear: 2000,
              });
              if (res.status === 201) acknowledged.set(res.body.id, { acked: res.body });
            }
          } catch {
            return; // the server was killed under this request: it was never acknowledged
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, (_, i) => writer(i));
      await new Promise((resolve) => setTimeout(resolve, 200 + random() * 1300));
      await service.stop('SIGKILL');
      stopped = true;
      await Promise.all(writers);
      agent.destroy();
    }
    const db = cdDatabase(file);
    try {
      expect(db.pragma('integrity_check', { simple: true })).to.equal('ok');
    } finally {
      db.close();
    }
    console.log(
      `      ${CYCLES} SIGKILLs; acknowledged writes checked: ${checked.toLocaleString('en-US')}, lost: ${lost}; records: ${acknowledged.size.toLocaleString('en-US')}`,
    );
    expect(checked).to.be.greaterThan(CYCLES);
    expect(lost).to.equal(0);
  });
});
