import type { Context } from 'koa';
import { PAGING_HEADERS } from './api-headers.js';
import type { Parameter, SuccessResponse } from './operations.js';

const { total: TOTAL, totalRelation: TOTAL_RELATION, link: LINK } = PAGING_HEADERS;

/** The largest `limit`, and the size of a `prev` page without one. */
const MAX_LIMIT = 1000;

export const pageParameters = {
  limit: (description: string): Parameter => ({
    name: 'limit',
    in: 'query',
    description,
    schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT },
  }),
  offset: (description: string, maxOffset: number): Parameter => ({
    name: 'offset',
    in: 'query',
    description,
    schema: { type: 'integer', minimum: 0, maximum: maxOffset },
  }),
};

interface PagingDocs {
  /** The `next` link carries a `cursor` (keyset paging) rather than an offset. */
  cursor?: boolean;
  /** Totals may be counted up to this many only (`countLimitApplies`: in which lists, in words). */
  countLimit?: number;
  countLimitApplies?: string;
}

/** The documentation of the paging headers of a list of `what`. */
export const pagingHeaders = (
  what: string,
  { cursor = false, countLimit, countLimitApplies = 'for some lists' }: PagingDocs = {},
): NonNullable<SuccessResponse['headers']> => ({
  [TOTAL]: {
    description:
      countLimit === undefined
        ? `How many ${what} match, on every page`
        : `How many ${what} match, on every page; counted up to ${countLimit} only ${countLimitApplies}: more is said as ${countLimit} with \`X-Total-Count-Relation\` set to \`gte\``,
    schema: { type: 'integer', minimum: 0 },
  },
  ...(countLimit !== undefined && {
    [TOTAL_RELATION]: {
      description: `\`eq\`: X-Total-Count is exact; \`gte\`: at least that many match (counting stopped at ${countLimit})`,
      schema: { type: 'string', enum: ['eq', 'gte'] },
    },
  }),
  [LINK]: {
    description: cursor
      ? 'The `next` page (with a `cursor`: every page costs the same) and, after an `offset`, the `prev` page, when there are some (RFC 8288)'
      : 'The `next` and `prev` pages, when there are some (RFC 8288)',
    schema: { type: 'string' },
  },
});

/**
 * A page of a list paged by offset (`shown` items) or by keyset; only the latter may count its
 * total up to a bound (`totalAtLeast`), since it finds its next page without the total.
 */
type PageOf = { params: Record<string, unknown>; total: number } & (
  | { shown: number }
  | { nextCursor: string | undefined; totalAtLeast?: boolean }
);

const PAGE_PARAMETERS = new Set(['offset', 'limit', 'cursor']);

/** Sets a page's headers; its links start from the offset asked, never from a lower-bound total. */
export function setPageHeaders(ctx: Context, page: PageOf): void {
  const { params, total } = page;
  const totalAtLeast = 'totalAtLeast' in page ? page.totalAtLeast : undefined;
  ctx.set(TOTAL, String(total));
  if (totalAtLeast !== undefined) ctx.set(TOTAL_RELATION, totalAtLeast ? 'gte' : 'eq');
  const offset = (params.offset as number | undefined) ?? 0;
  const limit = params.limit as number | undefined;
  const link = (rel: string, start: [name: string, value: string], size: number) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) {
      if (!PAGE_PARAMETERS.has(name) && value !== undefined) search.set(name, String(value));
    }
    search.set(...start);
    search.set('limit', String(size));
    return `<${ctx.path}?${search}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if ('nextCursor' in page) {
    if (limit !== undefined && page.nextCursor !== undefined)
      links.push(link('next', ['cursor', page.nextCursor], limit));
  } else if (limit !== undefined && offset + page.shown < total) {
    links.push(link('next', ['offset', String(offset + page.shown)], limit));
  }
  if (offset > 0) {
    const size = limit ?? Math.min(offset, MAX_LIMIT);
    // Past the last item the previous page is the last one: known only from an exact total.
    const end = totalAtLeast ? offset : Math.min(offset, total);
    links.push(link('prev', ['offset', String(Math.max(0, end - size))], size));
  }
  if (links.length > 0) ctx.set(LINK, links.join(', '));
}
