import type { Logger } from 'service-kit';
import { type CdStore, STORE_KINDS } from '../store/store.js';

/**
 * What GET /healthz reports (the kit's probes, README.md): up when the store answers a trivial
 * query, 503 (and an error logged) when not, and whether the store takes writes; /readyz is 503
 * too when the store does not answer. A store that takes no writes (a full disk) still serves
 * reads and deletes, which free space: it stays ready.
 */
export const cdHealth = (store: CdStore, logger: Logger | undefined) => ({
  summary: 'Whether the service and its store answer, and whether the store takes writes',
  details: {
    store: { type: 'string', enum: [...STORE_KINDS] },
    writes: {
      type: 'string',
      enum: ['ok', 'failing'],
      description:
        '"failing" when the last write failed because the store could not take it (a full disk, a database file gone): reads and deletes go on; the next write that succeeds makes it "ok"',
    },
  },
  mayFail: true,
  check: async () => {
    const details = { store: store.kind, writes: store.writesFailing() ? 'failing' : 'ok' };
    try {
      await store.ping();
      return { ok: true, details };
    } catch (error) {
      logger?.error({ store: store.kind, err: error }, 'store does not answer');
      return { ok: false, details };
    }
  },
});
