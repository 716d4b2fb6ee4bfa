import { createHash, randomUUID } from 'node:crypto';
import {
  CACHE_CONTROL,
  type Context,
  jsonBody,
  NotFound,
  type Operation,
  type Parameter,
  pagingHeaders,
  readIfMatch,
  requireToken,
  setPageHeaders,
  setStrongEtag,
} from 'service-kit';
import {
  buildListQuery,
  COUNT_LIMIT,
  encodeCursor,
  LIST_PARAMETERS,
  MAX_LIMIT,
  readListParams,
} from '../cd/query.js';
import { changesFor, newRecord } from '../cd/records.js';
import { type Cd, maxYear } from '../cd/schema.js';
import {
  cdRecordSchema,
  cdSchemas,
  titleOnlySchema,
  validCreate,
  validUpdate,
} from '../cd/validate.js';
import {
  type CdStore,
  type ExpectedVersions,
  type PageSummary,
  type VersionedCd,
  VersionMismatch,
} from '../store/store.js';
import { idParameter, parseId } from './params.js';

export interface CdRouteOptions {
  store: CdStore;
  apiToken: string | undefined;
  now?: () => Date;
  newId?: () => string;
}

/**
 * Lists and records change: a client or a proxy may keep them, but must ask again before reuse.
 */
function sendRead(ctx: Context, body: unknown): void {
  ctx.set('Cache-Control', CACHE_CONTROL.revalidate);
  ctx.body = body;
}

/** The answer to a write is never stored. */
function sendWritten(ctx: Context, status: number, body?: unknown): void {
  ctx.status = status;
  ctx.set('Cache-Control', CACHE_CONTROL.noStore);
  if (body !== undefined) ctx.body = body;
}

const listEtagHeader = {
  ETag: {
    description:
      'A weak validator of this page: its body, `X-Total-Count` and `Link`, which it changes with. Send it back in `If-None-Match`',
    schema: { type: 'string' },
  },
};

const cdEtagHeader = {
  ETag: {
    description:
      "The CD's strong ETag, from the version of its record: it changes exactly when the CD does. Send it back in `If-None-Match` (a read) or `If-Match` (a write)",
    schema: { type: 'string' },
  },
};

const ifMatchParameter: Parameter = {
  name: 'If-Match',
  in: 'header',
  description:
    "Change only the CD's version named: one ETag, a list, or `*`; weak tags never match. None current: 412, nothing changed. Without it, any version. An unknown id is a 404 whatever it says",
  schema: { type: 'string' },
};

const listPagingHeaders = pagingHeaders('CDs', {
  cursor: true,
  countLimit: COUNT_LIMIT,
  countLimitApplies: 'with `before` or two filters',
});

/**
 * A list's weak ETag: the collection's version, and, hashed, the page asked for (its parameters
 * as read, which shape its body) and its summary (X-Total-Count and Link), so that one tag never
 * names two sets of headers, even when a write lands between the version and the rows.
 */
function listTag(
  version: string,
  pageParams: Record<string, unknown>,
  { total, totalAtLeast, next }: PageSummary,
): string {
  const page = JSON.stringify([pageParams, total, totalAtLeast, next]);
  return `W/"${version}.${createHash('sha1').update(page).digest('base64url').slice(0, 16)}"`;
}

/** The opaque value of a CD's strong ETag: its version. */
const cdTag = (version: number) => String(version);

/** The versions a request's If-Match names (`*` or none: any version). */
function expectedVersions(ctx: Context): ExpectedVersions {
  const tags = readIfMatch(ctx);
  if (tags === undefined || tags === '*') return undefined;
  return tags.filter((tag) => /^[1-9][0-9]{0,14}$/.test(tag)).map(Number);
}

/**
 * Runs a write under the request's If-Match. A malformed header names no version, so an unknown
 * id is still a 404 whatever it says; a CD that exists answers the header's 400, unchanged.
 */
async function ifMatching<T>(ctx: Context, write: (expected: ExpectedVersions) => Promise<T>) {
  let malformed: unknown;
  let expected: ExpectedVersions;
  try {
    expected = expectedVersions(ctx);
  } catch (error) {
    malformed = error;
    expected = [];
  }
  try {
    return await write(expected);
  } catch (error) {
    throw malformed !== undefined && error instanceof VersionMismatch ? malformed : error;
  }
}

/** Sets the strong ETag of a single CD's answer; returns the CD, its body. */
function tagged(ctx: Context, { cd, version }: VersionedCd): Cd {
  setStrongEtag(ctx, cdTag(version));
  return cd;
}

/**
 * The JSON API under /cds, in routing order: thin adapters between HTTP, the CD rules and
 * the store. The request body schemas are those of the current latest release year.
 */
export function cdOperations({
  store,
  apiToken,
  now = () => new Date(),
  newId = randomUUID,
}: CdRouteOptions): Operation[] {
  const auth = requireToken(apiToken);
  const body = jsonBody();
  // A malformed id is a 400 before the body is read or the store is asked.
  const id: Operation['handler'] = async (ctx, next) => {
    ctx.state.id = parseId(ctx.params);
    await next();
  };
  const notFound = (id: string) => new NotFound(`No CD with id ${id}`);
  /** The CD the store found, or a 404 naming the id. */
  const found = <T>(cd: T | undefined, id: string): T => {
    if (cd === undefined) throw notFound(id);
    return cd;
  };
  const schemas = cdSchemas(maxYear(now()));

  return [
    {
      id: 'listCds',
      method: 'get',
      path: '/cds',
      summary: 'The CDs, filtered, sorted and paged',
      description: `A bare array. \`X-Total-Count\` tells how many CDs match in all: exactly with no filter or one of \`artist\` and \`genre\`; with \`before\` or two filters, exactly up to ${COUNT_LIMIT}, then ${COUNT_LIMIT} with \`X-Total-Count-Relation\` set to \`gte\` (at least). \`Link\` points to the next page, by a \`cursor\` that costs the same on every page, and after an \`offset\` to the previous one.`,
      parameters: LIST_PARAMETERS,
      responses: {
        200: {
          description: 'One page of the matching CDs',
          schema: { type: 'array', items: { oneOf: [cdRecordSchema, titleOnlySchema] } },
          headers: { ...listPagingHeaders, ...listEtagHeader },
        },
        304: {
          description:
            'Not modified (a matching `If-None-Match`): no body, the same `X-Total-Count` and `Link` as the 200',
          headers: { ...listPagingHeaders, ...listEtagHeader },
        },
      },
      errors: [400, 503],
      handler: async (ctx) => {
        const params = readListParams(ctx.query);
        const query = buildListQuery(params);
        const pageParams = {
          ...params,
          ...(params.cursor === undefined && { offset: query.offset }),
          limit: query.limit,
        };
        const setHeaders = (summary: PageSummary) =>
          setPageHeaders(ctx, {
            params: pageParams,
            total: summary.total,
            totalAtLeast: summary.totalAtLeast,
            maxLimit: MAX_LIMIT,
            nextCursor: summary.next && encodeCursor(params.sort, summary.next),
          });
        // The version is read first: what is read after it is at least as new as the tag says.
        const version = await store.listVersion();
        const answer = (summary: PageSummary) => {
          ctx.set('ETag', listTag(version, pageParams, summary));
          ctx.set('Cache-Control', CACHE_CONTROL.revalidate);
          ctx.remove('Link');
          setHeaders(summary);
          ctx.status = 200;
        };
        if (ctx.get('If-None-Match')) {
          // The page's headers are in its tag: a 304 carries those of the 200 that gave it.
          answer(await store.summarize(query));
          if (ctx.fresh) {
            ctx.status = 304;
            return;
          }
        }
        const page = await store.list(query);
        answer(page);
        ctx.body = page.items;
      },
    },
    {
      id: 'createCd',
      method: 'post',
      path: '/cds',
      summary: 'Add a CD',
      description:
        'Strings are trimmed. The service sets `id`, `createdAt` and `updatedAt`; a body may not give them.',
      requestBody: schemas.create,
      responses: {
        201: {
          description: 'The new CD',
          schema: cdRecordSchema,
          headers: {
            Location: { description: 'The URL of the new CD', schema: { type: 'string' } },
            ...cdEtagHeader,
          },
        },
      },
      errors: [400, 401, 413, 415, 503],
      bearerAuth: true,
      use: [auth, body],
      handler: async (ctx) => {
        const at = now();
        const input = validCreate(ctx.request.body, at);
        const created = await store.insert(newRecord(input, newId(), at));
        ctx.set('Location', `/cds/${created.cd.id}`);
        sendWritten(ctx, 201, tagged(ctx, created));
      },
    },
    {
      id: 'getCd',
      method: 'get',
      path: '/cds/:id',
      summary: 'One CD',
      parameters: [idParameter],
      responses: { 200: { description: 'The CD', schema: cdRecordSchema, headers: cdEtagHeader } },
      errors: [400, 404, 503],
      use: [id],
      handler: async (ctx) =>
        sendRead(ctx, tagged(ctx, found(await store.get(ctx.state.id), ctx.state.id))),
    },
    {
      id: 'updateCd',
      method: 'put',
      path: '/cds/:id',
      summary: 'Change some fields of a CD',
      description:
        'Any non-empty subset of the fields; the others are kept. `updatedAt` moves on. With `If-Match`, only if the CD is still at a version it names.',
      parameters: [idParameter, ifMatchParameter],
      requestBody: schemas.update,
      responses: {
        200: { description: 'The changed CD', schema: cdRecordSchema, headers: cdEtagHeader },
      },
      errors: [400, 401, 404, 412, 413, 415, 503],
      bearerAuth: true,
      use: [auth, id, body],
      handler: async (ctx) => {
        const at = now();
        const patch = validUpdate(ctx.request.body, at);
        const { id } = ctx.state;
        const changes = changesFor(patch, at);
        const updated = found(
          await ifMatching(ctx, (expected) => store.update(id, changes, expected)),
          id,
        );
        sendWritten(ctx, 200, tagged(ctx, updated));
      },
    },
    {
      id: 'deleteCd',
      method: 'delete',
      path: '/cds/:id',
      summary: 'Remove a CD',
      description: 'With `If-Match`, only if the CD is still at a version it names.',
      parameters: [idParameter, ifMatchParameter],
      responses: { 204: { description: 'Removed; no body' } },
      errors: [400, 401, 404, 412, 503],
      bearerAuth: true,
      use: [auth, id],
      handler: async (ctx) => {
        const { id } = ctx.state;
        if (!(await ifMatching(ctx, (expected) => store.delete(id, expected)))) throw notFound(id);
        sendWritten(ctx, 204);
      },
    },
  ];
}
