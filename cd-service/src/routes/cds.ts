import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { buildListQuery, checkListParams, type ListParams } from '../cd/query.js';
import { changesFor, newRecord } from '../cd/records.js';
import { type Checked, checkCreate, checkUpdate } from '../cd/validate.js';
import { requireToken } from '../http/auth.js';
import { httpError } from '../http/errors.js';
import { jsonBody } from '../http/json-body.js';
import type { CdStore } from '../store/store.js';
import { parseId } from './params.js';

export interface CdRouteOptions {
  store: CdStore;
  apiToken: string | undefined;
  now?: () => Date;
  newId?: () => string;
}

/** The value, or a 400 naming each field that is wrong. */
function valid<T>(checked: Checked<T>, what: string): T {
  if (checked.ok) return checked.value;
  const summary = checked.details.map((d) => `${d.field} ${d.message}`).join('; ');
  throw httpError(400, `Invalid ${what}: ${summary}`, checked.details);
}

/** The JSON API under /cds: thin adapters between HTTP, the CD rules and the store. */
export function cdRoutes({
  store,
  apiToken,
  now = () => new Date(),
  newId = randomUUID,
}: CdRouteOptions): Router {
  const router = new Router<{ id: string }>({ prefix: '/cds' });
  const auth = requireToken(apiToken);
  const body = jsonBody();
  // A malformed id is a 400 before the body is read or the store is asked.
  const id: Middleware<{ id: string }> = async (ctx, next) => {
    ctx.state.id = parseId(ctx.params.id);
    await next();
  };
  const notFound = (id: string) => httpError(404, `No CD with id ${id}`);

  router
    .get('/', async (ctx) => {
      const params = valid(checkListParams(ctx.query), 'query');
      const query = buildListQuery(params);
      const page = await store.list(query);
      ctx.set('X-Total-Count', String(page.total));
      const links = pageLinks(
        ctx,
        params,
        query.offset,
        query.limit,
        page.items.length,
        page.total,
      );
      if (links) ctx.set('Link', links);
      ctx.body = page.items;
    })
    .get('/:id', id, async (ctx) => {
      const cd = await store.get(ctx.state.id);
      if (!cd) throw notFound(ctx.state.id);
      ctx.body = cd;
    })
    .post('/', auth, body, async (ctx) => {
      const at = now();
      const input = valid(checkCreate(ctx.request.body, at), 'CD');
      const cd = await store.insert(newRecord(input, newId(), at));
      ctx.status = 201;
      ctx.set('Location', `/cds/${cd.id}`);
      ctx.body = cd;
    })
    .put('/:id', auth, id, body, async (ctx) => {
      const at = now();
      const patch = valid(checkUpdate(ctx.request.body, at), 'update');
      const cd = await store.update(ctx.state.id, changesFor(patch, at));
      if (!cd) throw notFound(ctx.state.id);
      ctx.body = cd;
    })
    .delete('/:id', auth, id, async (ctx) => {
      if (!(await store.delete(ctx.state.id))) throw notFound(ctx.state.id);
      ctx.status = 204;
    });
  return router;
}

/** `Link` to the next and previous pages, keeping the other query parameters. */
function pageLinks(
  ctx: Context,
  params: ListParams,
  offset: number,
  limit: number,
  count: number,
  total: number,
): string | undefined {
  const link = (pageOffset: number, rel: string) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) {
      if (name !== 'offset' && name !== 'limit' && value !== undefined)
        search.set(name, String(value));
    }
    search.set('offset', String(pageOffset));
    search.set('limit', String(limit));
    return `<${ctx.path}?${search}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (offset + count < total) links.push(link(offset + count, 'next'));
  if (offset > 0) links.push(link(Math.max(0, offset - limit), 'prev'));
  return links.length > 0 ? links.join(', ') : undefined;
}
