import { createHash, randomUUID } from 'node:crypto';
import {
  CACHE_CONTROL,
  type Context,
  judgePreconditions,
  NotFound,
  type Operation,
  type Parameter,
  PreconditionFailed,
  type Preconditions,
  pagingHeaders,
  requestPreconditions,
  setPageHeaders,
  type Verdict,
} from 'service-kit';
import { buildListQuery, COUNT_LIMIT, encodeCursor } from '../cd/query.js';
import { changesFor, newRecord } from '../cd/records.js';
import { type Cd, maxYear } from '../cd/schema.js';
import {
  cdRecordSchema,
  cdSchemas,
  titleOnlySchema,
  validCreate,
  validUpdate,
} from '../cd/validate.js';
import type { CdStore, PageSummary, VersionCondition, VersionedCd } from '../store/store.js';
import { requireToken } from './bearer-token.js';
import { jsonBody, requestBody } from './json-body.js';
import { idParameter, LIST_PARAMETERS, parseId, readListParams } from './params.js';

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
    'Only if the CD is at a version named: one ETag, a list, or `*`; weak tags never match. Otherwise 412, nothing changed. An unknown id is a 404 whatever it says',
  schema: { type: 'string' },
};

const ifNoneMatchParameter: Parameter = {
  name: 'If-None-Match',
  in: 'header',
  description:
    'Only if the CD is at none of the versions named (weak or strong tags alike), or with `*` only if there is none. Otherwise a GET gets 304, a write 412 with nothing changed',
  schema: { type: 'string' },
};

const listPagingHeaders = pagingHeaders('CDs', {
  cursor: true,
  countLimit: COUNT_LIMIT,
  countLimitApplies: 'with `before` or two filters',
});

/**
 * The opaque value of a list's weak ETag: the collection's version, and, hashed, the page asked
 * for (its parameters as read, which shape its body) and its summary (X-Total-Count and Link),
 * so that one tag never names two sets of headers, even when a write lands between the version
 * and the rows.
 */
function listTag(
  version: string,
  pageParams: Record<string, unknown>,
  { total, totalAtLeast, next }: PageSummary,
): string {
  const page = JSON.stringify([pageParams, total, totalAtLeast, next]);
  return `${version}.${createHash('sha1').update(page).digest('base64url').slice(0, 16)}`;
}

/** A list's tag is weak: If-Match, which compares strongly, never matches it (`*` aside). */
const listRefusal = (verdict: Verdict) =>
  new PreconditionFailed(
    verdict.outcome === 'failed' && verdict.reason === 'unreadable'
      ? 'If-Match could not be read (it must be * or a list of quoted entity tags), so it names no current list'
      : 'If-Match names no current list: a list has only a weak ETag, which If-Match never matches (send If-None-Match to revalidate)',
  );

/** Why a precondition failed, as the kit's verdict says. */
type FailureReason = Extract<Verdict, { outcome: 'failed' }>['reason'];

/** The opaque value of a CD's strong ETag: its version. */
const cdTag = (version: number) => String(version);

/**
 * The 412 of a precondition that does not hold for the CD `id`, saying what was wrong: the CD
 * changed since the tag, or is at a tag If-None-Match names; a weak tag, which If-Match never
 * matches; an If-Match that could not be read.
 */
function refusal(ctx: Context, id: string, reason: FailureReason): PreconditionFailed {
  const unchanged = ctx.method === 'GET' || ctx.method === 'HEAD' ? '' : '; nothing was changed';
  switch (reason) {
    case 'weak':
      return new PreconditionFailed(
        `If-Match names a weak tag (W/"..."), which never matches: If-Match compares strongly. Send the CD's ETag as it was given, such as "3"${unchanged}`,
      );
    case 'unreadable':
      return new PreconditionFailed(
        'If-Match could not be read: it must be * or a list of quoted entity tags, such as "3", "7"; it names no version of the CD',
      );
    case 'matches':
      return new PreconditionFailed(
        `The CD ${id} is at a version If-None-Match names (* names any)${unchanged}: read it again (GET) and send its new ETag`,
      );
    default:
      return new PreconditionFailed(
        `The CD ${id} has changed since the version If-Match names${unchanged}: read it again (GET) and send its new ETag`,
      );
  }
}

/**
 * The condition a write runs under once its preconditions have let it through: the versions its
 * If-Match names, none of those its If-None-Match names (a tag that is no version names none),
 * so that the store refuses it if the CD changed in between. If-Match compares strongly: its
 * weak tags name no version.
 */
function versionCondition({ ifMatch, ifNoneMatch }: Preconditions): VersionCondition {
  const versions = (tags: Preconditions['ifMatch'], strongOnly: boolean) =>
    tags === undefined || typeof tags === 'string'
      ? undefined
      : tags
          .filter((tag) => !(strongOnly && tag.weak) && /^[1-9][0-9]{0,14}$/.test(tag.opaque))
          .map((tag) => Number(tag.opaque));
  const notIn = versions(ifNoneMatch, false);
  const matching = versions(ifMatch, true);
  return { ...(matching && { in: matching }), ...(notIn && { notIn }) };
}

/** What the steps of a request naming one CD hand on to its handler, in `ctx.state.current`. */
interface CurrentCd {
  id: string;
  found: VersionedCd;
  /** The condition its write runs under. */
  condition: VersionCondition;
}

/** The CD the `current` step found, with its id and the condition of a write. */
const currentOf = (ctx: Context): CurrentCd => ctx.state.current as CurrentCd;

/**
 * Sets the strong ETag of a single CD's answer (RFC 9110 §8.8.1); returns the CD, its body. A
 * strong tag names these exact bytes, so the kit's compression sends the answer as it is.
 */
function tagged(ctx: Context, { cd, version }: VersionedCd): Cd {
  ctx.set('ETag', `"${cdTag(version)}"`);
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
  const notFound = (id: string) => new NotFound(`No CD with id ${id}`);
  /** The CD the store found, or a 404 naming the id. */
  const found = <T>(cd: T | undefined, id: string): T => {
    if (cd === undefined) throw notFound(id);
    return cd;
  };
  // The steps of a request naming one CD, after its token: the id (400), the CD as it is (404),
  // the preconditions against it (412, or 304); only then is a body read. A write runs under
  // the same preconditions, which the store checks in the write itself.
  const current: Operation['handler'] = async (ctx, next) => {
    const id = parseId(ctx.params);
    const cd = found(await store.get(id), id);
    const verdict = judgePreconditions(ctx, { etag: `"${cdTag(cd.version)}"` });
    if (verdict.outcome === 'failed') throw refusal(ctx, id, verdict.reason);
    if (verdict.outcome === 'not-modified') {
      ctx.set('Cache-Control', CACHE_CONTROL.revalidate);
      tagged(ctx, cd);
      ctx.status = 304;
      return;
    }
    const current: CurrentCd = {
      id,
      found: cd,
      condition: versionCondition(requestPreconditions(ctx)),
    };
    ctx.state.current = current;
    await next();
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
      errors: [400, 412, 503],
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
            nextCursor: summary.next && encodeCursor(params.sort, summary.next),
          });
        // The version is read first: what is read after it is at least as new as the tag says.
        const version = await store.listVersion();
        /** Sets the page's headers; returns its tag's opaque value. */
        const answer = (summary: PageSummary) => {
          const tag = listTag(version, pageParams, summary);
          ctx.set('ETag', `W/"${tag}"`);
          ctx.set('Cache-Control', CACHE_CONTROL.revalidate);
          ctx.remove('Link');
          setHeaders(summary);
          ctx.status = 200;
          return tag;
        };
        const { ifMatch, ifNoneMatch } = requestPreconditions(ctx);
        if (ifMatch !== undefined || ifNoneMatch !== undefined) {
          // The page's headers are in its tag: a 304 carries those of the 200 that gave it.
          const tag = answer(await store.summarize(query));
          const verdict = judgePreconditions(ctx, { etag: `W/"${tag}"` });
          if (verdict.outcome === 'failed') throw listRefusal(verdict);
          if (verdict.outcome === 'not-modified') {
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
        const input = validCreate(requestBody(ctx), at);
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
      parameters: [idParameter, ifMatchParameter, ifNoneMatchParameter],
      responses: {
        200: { description: 'The CD', schema: cdRecordSchema, headers: cdEtagHeader },
        304: {
          description: 'Not modified (`If-None-Match` names its version): no body',
          headers: cdEtagHeader,
        },
      },
      errors: [400, 404, 412, 503],
      use: [current],
      handler: (ctx) => sendRead(ctx, tagged(ctx, currentOf(ctx).found)),
    },
    {
      id: 'updateCd',
      method: 'put',
      path: '/cds/:id',
      summary: 'Change some fields of a CD',
      description:
        'Any non-empty subset of the fields; the others are kept. A CD as read (GET) may be sent back whole, changed: its `id`, `createdAt` and `updatedAt` are ignored when they equal the stored values (any other value is a 400 naming the field). `updatedAt` moves on. With `If-Match` or `If-None-Match`, only if the CD is at a version they allow; the body is read only then.',
      parameters: [idParameter, ifMatchParameter, ifNoneMatchParameter],
      requestBody: schemas.update,
      responses: {
        200: { description: 'The changed CD', schema: cdRecordSchema, headers: cdEtagHeader },
      },
      errors: [400, 401, 404, 412, 413, 415, 503],
      bearerAuth: true,
      use: [auth, current, body],
      handler: async (ctx) => {
        const at = now();
        const { id, found: stored, condition } = currentOf(ctx);
        const patch = validUpdate(requestBody(ctx), at, stored.cd);
        const updated = found(await store.update(id, changesFor(patch, at), condition), id);
        sendWritten(ctx, 200, tagged(ctx, updated));
      },
    },
    {
      id: 'deleteCd',
      method: 'delete',
      path: '/cds/:id',
      summary: 'Remove a CD',
      description: 'With `If-Match` or `If-None-Match`, only if the CD is at a version they allow.',
      parameters: [idParameter, ifMatchParameter, ifNoneMatchParameter],
      responses: { 204: { description: 'Removed; no body' } },
      errors: [400, 401, 404, 412, 503],
      bearerAuth: true,
      use: [auth, current],
      handler: async (ctx) => {
        const { id, condition } = currentOf(ctx);
        if (!(await store.delete(id, condition))) throw notFound(id);
        sendWritten(ctx, 204);
      },
    },
  ];
}
