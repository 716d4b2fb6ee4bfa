import {
  type ApiInfo,
  CACHE_CONTROL,
  healthOperations,
  type Logger,
  type Operation,
  Router,
} from 'service-kit';
import { type CdStore, STORE_KINDS } from '../store/store.js';

export const API_INFO: ApiInfo = {
  title: 'CD Collection API',
  version: '1.0.0',
  description:
    'A CD collection to read and change. Lists are bare arrays; errors are `{"error", "status"}` objects.',
  bearerDescription:
    'Writes need `Authorization: Bearer <token>` when the service is started with CD_API_TOKEN; without it they are open.',
};

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

/** `/` has no page of its own: 303 See Other sends a browser (or `curl -L`) to the API reference. */
export const homeRedirect = (): Router =>
  new Router().get('/', (ctx) => {
    ctx.set('Cache-Control', CACHE_CONTROL.stable);
    ctx.status = 303;
    ctx.redirect('/docs');
  });
