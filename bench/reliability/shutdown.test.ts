import { once } from 'node:events';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { expect } from 'chai';
import { type RunningProcess, startService } from '../src/process.js';
import { freshCdFile } from './cd-store.js';

const WRITERS = 48;
const CYCLES = Number(process.env.DRAIN_CYCLES ?? 3);
/**
 * Writes acknowledged before the signal is sent, with at least one per writer: the load is
 * established and every connection has been accepted by the server (see the report).
 */
const WARM_WRITES = 300;

interface Cd {
  id: string;
  title: string;
}

/** The outcome of one POST: when its bytes were all handed to the kernel, and what came back. */
type Outcome =
  | { ok: true; status: number; body: Cd; connection: string | undefined; writtenAt?: number }
  | { ok: false; code: string; writtenAt?: number };

function post(agent: Agent, url: string, title: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const text = JSON.stringify({
      title,
      artist: 'Drain Artist',
      genre: 'Rock',
      releaseYear: 2001,
    });
    let writtenAt: number | undefined;
    const req = request(
      `${url}/cds`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString();
          resolve({
            ok: true,
            status: res.statusCode ?? 0,
            body: body ? JSON.parse(body) : undefined,
            connection: res.headers.connection,
            writtenAt,
          });
        });
        res.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ ok: false, code: error.code ?? error.message, writtenAt }),
        );
      },
    );
    // 'finish': the whole request was handed to the operating system.
    req.on('finish', () => {
      writtenAt = performance.now();
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ ok: false, code: error.code ?? error.message, writtenAt }),
    );
    req.end(text);
  });
}

/** Every stored CD, by id, a page of 1,000 at a time. */
async function everyCd(url: string): Promise<Map<string, Cd>> {
  const all = new Map<string, Cd>();
  for (let offset = 0; ; offset += 1000) {
    const page = (await (await fetch(`${url}/cds?limit=1000&offset=${offset}`)).json()) as Cd[];
    for (const cd of page) all.set(cd.id, cd);
    if (page.length < 1000) return all;
  }
}

describe(`cd-service drains on SIGTERM under ${WRITERS} keep-alive writers, ${CYCLES} times (issue 11, item 9)`, function () {
  this.timeout(CYCLES * 60_000);

  it('exits 0, answers every request it had received, and keeps every acknowledged write', async () => {
    const file = freshCdFile();
    const acknowledged = new Map<string, Cd>();
    const report: string[] = [];
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const service: RunningProcess = await startService('cd-service', {
        CD_DB_PATH: file,
        CD_SEED: 'false',
      });
      const logs: string[] = [];
      service.child.stdout?.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
      const exit = once(service.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      const agent = new Agent({ keepAlive: true, maxSockets: WRITERS });
      let signalAt: number | undefined;
      let warm: () => void = () => {};
      const warmedUp = new Promise<void>((resolve) => {
        warm = resolve;
      });
      let ackedThisCycle = 0;
      const answeredWriters = new Set<number>();
      const failures: string[] = [];
      const after = { answered: 0, closeHeader: 0, refused: 0, resetUnsent: 0 };

      const writer = async (index: number) => {
        for (let n = 0; ; n++) {
          const outcome = await post(agent, service.url, `Drain ${cycle}-${index}-${n}`);
          if (outcome.ok) {
            if (outcome.status !== 201)
              failures.push(`status ${outcome.status}: ${JSON.stringify(outcome.body)}`);
            else acknowledged.set(outcome.body.id, outcome.body);
            if (signalAt !== undefined) {
              after.answered++;
              if (outcome.connection === 'close') after.closeHeader++;
            } else {
              answeredWriters.add(index);
              if (++ackedThisCycle >= WARM_WRITES && answeredWriters.size === WRITERS) warm();
            }
            continue;
          }
          // A request the server had received (its bytes were all sent before the signal) must
          // be answered; a connection refused after the server closed is the end of this writer.
          if (signalAt === undefined) failures.push(`${outcome.code} before the signal`);
          else if (outcome.writtenAt !== undefined && outcome.writtenAt < signalAt) {
            failures.push(
              `${outcome.code} on a request fully sent ${(signalAt - outcome.writtenAt).toFixed(2)} ms before the signal`,
            );
          } else if (outcome.code === 'ECONNREFUSED') after.refused++;
          else after.resetUnsent++;
          return;
        }
      };
      const writers = Array.from({ length: WRITERS }, (_, i) => writer(i));
      await warmedUp;
      signalAt = performance.now();
      service.child.kill('SIGTERM');
      const [code, signal] = await exit;
      await Promise.all(writers);
      agent.destroy();
      const log = logs.join('');
      report.push(
        `cycle ${cycle}: exit ${code ?? signal}; answered after the signal ${after.answered} (${after.closeHeader} with Connection: close), refused ${after.refused}, not fully sent ${after.resetUnsent}`,
      );
      expect(failures, `cycle ${cycle}`).to.deep.equal([]);
      expect(code, `cycle ${cycle} exit code; log:\n${log.slice(-2000)}`).to.equal(0);
      expect(log).to.match(/"message":"shut down"/);
      expect(log).not.to.match(/forcing exit/);
    }

    // Every acknowledged write is there, as acknowledged.
    const service = await startService('cd-service', { CD_DB_PATH: file, CD_SEED: 'false' });
    try {
      const stored = await everyCd(service.url);
      const missing = [...acknowledged.values()].filter(
        (cd) => JSON.stringify(stored.get(cd.id)) !== JSON.stringify(cd),
      );
      console.log(
        `      ${report.join('\n      ')}\n      acknowledged ${acknowledged.size}, stored ${stored.size}, missing or changed ${missing.length}`,
      );
      expect(missing).to.deep.equal([]);
    } finally {
      await service.stop();
    }
  });
});

describe('a connection that never sent a byte does not hold a SIGTERM', function () {
  this.timeout(30_000);

  for (const name of ['games-service', 'cd-service'] as const) {
    it(`${name} exits 0 and logs "shut down" with such a connection open`, async () => {
      const service = await startService(name, { CD_DB_PATH: freshCdFile() });
      const logs: string[] = [];
      service.child.stdout?.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
      const { port } = new URL(service.url);
      const idle = connect(Number(port), '127.0.0.1');
      await once(idle, 'connect');
      const closed = once(idle, 'close');
      const exit = once(service.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      service.child.kill('SIGTERM');
      const [code] = await exit;
      await closed;
      expect(code).to.equal(0);
      expect(logs.join('')).to.include('"message":"shut down"');
      expect(logs.join('')).to.not.include('forcing exit');
    });
  }
});
