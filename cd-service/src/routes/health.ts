import { healthOperations, type Logger, type Operation } from 'service-kit';
import { type CdStore, STORE_KINDS } from '../store/store.js';

/**
 * GET /healthz: up when the store answers a trivial query, 503 (and an error logged) when not;
 * /livez; /readyz, 503 when the store does not answer or the process stops.
 */
export const cdHealth = (store: CdStore, logger: Logger | undefined): Operation[] =>
  healthOperations({
    summary: 'Whether the service and its store answer',
    details: { store: { type: 'string', enum: [...STORE_KINDS] } },
    mayFail: true,
    check: async () => {
      const details = { store: store.kind };
      try {
        await store.ping();
        return { ok: true, details };
      } catch (error) {
        logger?.error({ store: store.kind, err: error }, 'store does not answer');
        return { ok: false, details };
      }
    },
  });
