import { renameSync, rmSync } from 'node:fs';
import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { WRITE_UNAVAILABLE } from '../../src/store/sqlite.js';
import type { CdStore } from '../../src/store/store.js';
import { folderEachTest } from '../fixtures.js';
import { captureLogger, expectErrorBody, makeCdInput, request } from '../helpers.js';

describe('HTTP: the SQLite file deleted or moved while the service runs', () => {
  const folder = folderEachTest();
  let store: CdStore;
  const logger = captureLogger('cd-service');
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;

  beforeEach(() => {
    store = folder.openStore();
    logger.lines.splice(0);
    app = createApp({ store, logger }).callback();
  });

  for (const [what, away] of [
    ['rm', () => rmSync(folder.file)],
    ['mv', () => renameSync(folder.file, `${folder.file}.moved`)],
  ] as const) {
    it(`${what}: every write answers 503 with Retry-After, /healthz and /readyz 503, the log says why`, async () => {
      const kept = (await request(app).post('/cds').send(makeCdInput()).expect(201)).body;
      away();
      const writes = await Promise.all(
        Array.from({ length: 20 }, () => request(app).post('/cds').send(makeCdInput())),
      );
      writes.push(await request(app).put(`/cds/${kept.id}`).send({ title: 'Renamed' }));
      writes.push(await request(app).delete(`/cds/${kept.id}`));
      for (const res of writes) {
        expectErrorBody(res, 503);
        expect(res.body).to.deep.equal({ error: WRITE_UNAVAILABLE, status: 503 });
        expect(res.headers['retry-after']).to.equal('5');
      }
      expect((await request(app).get('/healthz').expect(503)).body).to.deep.equal({
        status: 'unavailable',
        store: 'sqlite',
        writes: 'failing',
      });
      expect((await request(app).get('/readyz').expect(503)).body).to.deep.equal({
        status: 'unavailable',
      });
      // Reads go on, from the file the service has open.
      expect((await request(app).get(`/cds/${kept.id}`).expect(200)).body).to.deep.equal(kept);

      const errors = logger.lines.filter((line) => line.level === 'error');
      expect(errors).to.have.length(22 + 2);
      for (const line of errors) {
        const err = line.err as { code?: string; message?: string };
        expect(err.code).to.equal('DATABASE_FILE_GONE');
        expect(err.message).to.include(
          `${folder.file} was deleted, moved or replaced while in use`,
        );
      }
      expect(errors.at(-1)).to.include({ message: 'store does not answer', store: 'sqlite' });
    });
  }
});
