import { type ApiInfo, type AppSettings, createServiceApp, describeApi } from 'service-kit';
import { cdOperations } from './routes/cds.js';
import { toHttpError } from './routes/domain-errors.js';
import { cdHealth } from './routes/health.js';
import { homeRedirect } from './routes/home.js';
import type { CdStore } from './store/store.js';
import { timedStore } from './store/timed.js';

/** The API's paths, answered with JSON, errors included; with the kit's own, every path but /docs and the assets. */
export const JSON_PATHS = ['/cds'];

/** The API's title, version and description in its OpenAPI document. */
const API_INFO: ApiInfo = {
  title: 'CD Collection API',
  version: '1.0.0',
  description:
    'A CD collection to read and change. Lists are bare arrays; errors are `{"error", "status"}` objects.',
  bearerDescription:
    'Writes need `Authorization: Bearer <token>` when the service is started with CD_API_TOKEN; without it they are open.',
};

/**
 * Every answer is JSON but the API reference (/docs), which loads only its own stylesheet
 * and icon: nothing else may be loaded, framed or submitted.
 */
const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'none'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
};

/** `metrics`: whether GET /metrics answers, with the store's own metrics; `corsOrigins`: none by default. */
export interface AppOptions extends Omit<AppSettings, 'metrics'> {
  store: CdStore;
  metrics?: boolean;
  /** When set, POST, PUT and DELETE need `Authorization: Bearer <apiToken>`. */
  apiToken?: string | undefined;
  /** The clock of timestamps and of the latest valid release year. */
  now?: () => Date;
}

/** Stands for the store when only the document is wanted: none of its handlers runs. */
const documentOnly = new Proxy({} as CdStore, {
  get() {
    throw new Error('The document alone has no store');
  },
});

/**
 * The JSON API: the /cds operations, then the probes (the order /docs shows them), and their
 * OpenAPI document, with the latest release year of `now`. Without a store, only the document
 * may be used.
 */
export function cdApi({
  store = documentOnly,
  logger,
  apiToken,
  now,
}: Partial<Pick<AppOptions, 'store' | 'logger' | 'apiToken' | 'now'>> = {}) {
  return describeApi(API_INFO, cdOperations({ store, apiToken, now }), cdHealth(store, logger));
}

/** The Koa app of the service (no listen): the kit's middleware and the JSON API. */
export function createApp({
  store,
  apiToken,
  now,
  corsOrigins = [],
  metrics = true,
  ...settings
}: AppOptions) {
  // The store's latency and failures are metrics too, in the registry of GET /metrics.
  const timed = metrics ? timedStore(store) : undefined;
  const parts = {
    service: 'cd-service',
    api: cdApi({ store: timed?.store ?? store, logger: settings.logger, apiToken, now }),
    routers: [homeRedirect()],
    jsonPaths: JSON_PATHS,
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    toHttpError,
  };
  const app = createServiceApp(import.meta.url, parts, { ...settings, corsOrigins, metrics });
  if (timed) app.metrics?.registerMetric(timed.metric);
  return app;
}
