// Every name a service uses from the kit (see README.md: one line each).
export type { Context } from 'koa';
export { describeApi } from './api.js';
export { type AppSettings, createServiceApp } from './app.js';
export { answerList, answerStable, CACHE_CONTROL } from './cache-control.js';
export { judgePreconditions, requestPreconditions } from './conditional-get.js';
export { envSetting, readServerConfig, type ServerConfig } from './config.js';
export { BadRequest, type ErrorDetail, NotFound, PreconditionFailed } from './errors.js';
export type { Logger } from './log.js';
export type { ApiInfo, Operation, Parameter } from './operations.js';
export { pageParameters, pagingHeaders, setPageHeaders } from './paging.js';
export type { Preconditions, Verdict } from './preconditions.js';
export { Router } from './routing.js';
export { SeedError, seedFile } from './seed.js';
export { runService } from './serve.js';
export { bodyValidator, parameterValidator } from './validation.js';
