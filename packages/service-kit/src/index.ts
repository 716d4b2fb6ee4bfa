export { default as Router } from '@koa/router';
export type { Context, Middleware, Next } from 'koa';
export type { Registry } from 'prom-client';
export { createServiceApp, PAGES_POLICY, type ServiceApp, type ServiceAppOptions } from './app.js';
export { type Assets, assets } from './assets.js';
export { requireToken } from './bearer-token.js';
export {
  booleanSetting,
  DEFAULT_CACHE_MAX_BYTES,
  integerSetting,
  parseOrigins,
  readServerConfig,
  type ServerConfig,
} from './config.js';
export { type CorsOptions, corsFor } from './cors.js';
export { type Api, describeApi, docsPage } from './docs.js';
export {
  BadRequest,
  type ErrorBody,
  type ErrorDetail,
  errorBodySchema,
  HttpError,
  NotFound,
  PayloadTooLarge,
  ServiceUnavailable,
  Unauthorized,
  UnsupportedMediaType,
} from './errors.js';
export { type HealthOptions, type HealthReport, healthOperation } from './health.js';
export { jsonBody } from './json-body.js';
export { createLogger, type Logger, silentLogger } from './log.js';
export { createMetricsRegistry, routeOf, timeOperations } from './metrics.js';
export {
  type ApiInfo,
  type JsonSchema,
  mount,
  type Operation,
  openApiDocument,
  type Parameter,
  type SuccessResponse,
} from './operations.js';
export { type PageOf, pagingHeaders, setPageHeaders } from './paging.js';
export { ENCODINGS, type Encoding, type ResponseCache, responseCache } from './response-cache.js';
export { runService, type Started } from './run.js';
export {
  fieldProblem,
  loadSeedFile,
  parseSeed,
  recordLabel,
  SeedError,
  type SeedRules,
} from './seed.js';
export { createHttpServer, type ServeOptions, serve } from './serve.js';
export { bodyValidator, parameterValidator, type ValidatorOptions } from './validation.js';
export { compileViews, type RenderFile, viewEngine } from './view-engine.js';
export { kitHelpers, renderView } from './views.js';
