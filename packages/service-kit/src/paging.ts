import type { Context } from 'koa';
import type { SuccessResponse } from './operations.js';

/** The documentation of the paging headers of a list (`what`: the items, in words). */
export const pagingHeaders = (what: string): NonNullable<SuccessResponse['headers']> => ({
  'X-Total-Count': {
    description: `How many ${what} match, on every page`,
    schema: { type: 'integer', minimum: 0 },
  },
  Link: {
    description: 'The `next` and `prev` pages, when there are some (RFC 8288)',
    schema: { type: 'string' },
  },
});

export interface PageOf {
  /** The query parameters of this page, as read: `offset` and `limit` among them. */
  params: Record<string, unknown>;
  /** How many items this page shows, and how many match in all. */
  shown: number;
  total: number;
  /** The largest limit a client may ask for: the size of a `prev` page without a limit. */
  maxLimit: number;
}

/**
 * Sets `X-Total-Count` and `Link` (the `next` and `prev` pages, RFC 8288) for one page of a
 * list. The links keep the other parameters, in their order, then `offset` and `limit`. Without
 * a limit there is no next page; a `prev` page never starts below 0 nor past the last item.
 */
export function setPageHeaders(ctx: Context, { params, shown, total, maxLimit }: PageOf): void {
  ctx.set('X-Total-Count', String(total));
  const offset = (params.offset as number | undefined) ?? 0;
  const limit = params.limit as number | undefined;
  const link = (rel: string, start: number, size: number) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) {
      if (name !== 'offset' && name !== 'limit' && value !== undefined) {
        search.set(name, String(value));
      }
    }
    search.set('offset', String(start));
    search.set('limit', String(size));
    return `<${ctx.path}?${search}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (limit !== undefined && offset + shown < total)
    links.push(link('next', offset + shown, limit));
  if (offset > 0) {
    const size = limit ?? Math.min(offset, maxLimit);
    links.push(link('prev', Math.max(0, Math.min(offset, total) - size), size));
  }
  if (links.length > 0) ctx.set('Link', links.join(', '));
}
