import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import createError from 'http-errors';
import type { Middleware } from 'koa';
import getRawBody from 'raw-body';
import { describeApi } from '../src/api.js';
import { type ServiceAppOptions, serviceApp } from '../src/app.js';
import { BadRequest, NotFound } from '../src/errors.js';
import { Router } from '../src/index.js';
import type { Operation } from '../src/operations.js';
import { setPageHeaders } from '../src/paging.js';
import { Conformance } from '../src/testing/conformance.js';

const FAILING = ['addItemThenFail', 'boom'];
const JSON_PATHS = ['/api'];
const root = join(dirname(fileURLToPath(import.meta.url)), 'fixture');
const itemSchema = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: { type: 'integer' }, name: { type: 'string' } },
};

/**
 * The least a JSON write needs (services bring their own reader): 415 unless JSON, 413 past 1 KB
 * declared or read, the rest left unread for the kit to drop, 400 unless it parses.
 */
const readItem: Middleware = async (ctx, next) => {
  if (!ctx.is('application/json')) throw createError(415, 'The body must be JSON');
  try {
    const text = await getRawBody(ctx.req, { limit: '1kb', length: ctx.request.length });
    ctx.state.body = JSON.parse(text.toString());
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 413) throw createError(413, 'The body is larger than 1kb');
    throw createError(400, 'The body is not valid JSON');
  }
  await next();
};

/**
 * A small service on the kit: a list that can grow, a random answer, a big one, and (unless
 * `failing` is false) two routes that fail.
 */
export function fixtureService(options: Partial<ServiceAppOptions> = {}, { failing = true } = {}) {
  const items = [{ id: 1, name: 'first' }];
  const calls = { list: 0, big: 0 };
  const health = { up: true };
  const operations: Operation[] = [
    {
      id: 'listItems',
      method: 'get',
      path: '/api/items',
      summary: 'Every item',
      description: 'The `items`, by id.',
      responses: { 200: { description: 'Items', schema: { type: 'array', items: itemSchema } } },
      errors: [],
      handler: (ctx) => {
        calls.list++;
        ctx.set('Cache-Control', 'public, max-age=60');
        ctx.body = items;
      },
    },
    {
      id: 'addItem',
      method: 'post',
      path: '/api/items',
      summary: 'Add an item',
      requestBody: itemSchema,
      responses: { 201: { description: 'Added', schema: itemSchema } },
      errors: [400, 413, 415],
      use: [readItem],
      handler: (ctx) => {
        const { name } = ctx.state.body as { name?: unknown };
        if (typeof name !== 'string') {
          throw new BadRequest('Invalid item', [{ field: 'name', message: 'must be a string' }]);
        }
        const item = { id: items.length + 1, name };
        items.push(item);
        ctx.status = 201;
        ctx.body = item;
      },
    },
    {
      id: 'removeLastItem',
      method: 'delete',
      path: '/api/items/last',
      summary: 'Removes the last item',
      responses: { 204: { description: 'Removed' } },
      errors: [],
      handler: (ctx) => {
        items.pop();
        ctx.status = 204;
      },
    },
    {
      id: 'randomNumber',
      method: 'get',
      path: '/api/random',
      summary: 'A number, new every time',
      responses: { 200: { description: 'A number', schema: { type: 'object' } } },
      errors: [],
      handler: (ctx) => {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { value: Math.random().toFixed(9) };
      },
    },
    {
      id: 'bigAnswer',
      method: 'get',
      path: '/api/big/:size',
      summary: 'An answer of `size` kilobytes',
      responses: { 200: { description: 'Filler', schema: { type: 'object' } } },
      errors: [404],
      handler: (ctx) => {
        const size = Number(ctx.params.size);
        if (!(size >= 1 && size <= 10_000)) throw new NotFound('No such size');
        calls.big++;
        ctx.set('Cache-Control', 'public, max-age=60');
        ctx.body = { filler: 'x'.repeat(size * 1024) };
      },
    },
    {
      id: 'addItemThenFail',
      method: 'post',
      path: '/api/items/half-done',
      summary: 'Adds an item, then fails unexpectedly',
      responses: { 201: { description: 'Never', schema: itemSchema } },
      errors: [],
      handler: () => {
        items.push({ id: items.length + 1, name: 'half-done' });
        throw new Error('failed after the write');
      },
    },
    {
      id: 'boom',
      method: 'get',
      path: '/api/boom',
      summary: 'Fails unexpectedly, after the headers of a page were set',
      responses: {},
      errors: [],
      handler: (ctx) => {
        setPageHeaders(ctx, {
          params: { offset: 2, limit: 1 },
          total: 5,
          totalAtLeast: true,
          nextCursor: 'next',
        });
        ctx.set('ETag', '"1"');
        ctx.set('Location', '/api/items/1');
        throw new Error('secret detail from the database');
      },
    },
  ];
  const api = describeApi(
    { title: 'Fixture API', version: '1.0.0', description: 'For the kit tests.' },
    failing ? operations : operations.filter((op) => !FAILING.includes(op.id)),
    {
      details: { items: { type: 'integer' } },
      check: () => ({ ok: health.up, details: { items: items.length } }),
      mayFail: true,
    },
  );
  const pages = new Router()
    .get('/', async (ctx) => {
      ctx.set('Cache-Control', 'public, max-age=60');
      await ctx.render('home.pug', { title: 'Home', message: 'hello' });
    })
    // An answer that stays under way: its first part is sent, the rest never comes.
    .get('/streaming', (ctx) => {
      const body = new PassThrough();
      body.write('first part\n');
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'text';
      ctx.body = body;
    });
  const app = serviceApp({
    service: 'fixture',
    root,
    api,
    jsonPaths: JSON_PATHS,
    routers: [pages],
    errorView: 'error.pug',
    formatting: { shout: (text: string) => text.toUpperCase() },
    corsOrigins: ['https://allowed.example'],
    ...options,
  });
  const conformance = new Conformance(api.document as never, JSON_PATHS);
  return {
    app,
    api,
    calls,
    items,
    health,
    request: conformance.request.bind(conformance),
    conformance,
  };
}
