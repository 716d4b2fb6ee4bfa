import { expect } from 'chai';
import type { Context } from 'koa';
import { setPageHeaders } from '../src/paging.js';

/** The headers setPageHeaders sets on a request for `path`. */
function headersFor(path: string, page: Parameters<typeof setPageHeaders>[1]) {
  const headers: Record<string, string> = {};
  const ctx = { path, set: (name: string, value: string) => (headers[name] = value) };
  setPageHeaders(ctx as unknown as Context, page);
  return headers;
}

describe('paging headers', () => {
  it('link the next and previous pages, keeping the other parameters', () => {
    const headers = headersFor('/items', {
      params: { artist: 'A B', offset: 2, limit: 2 },
      shown: 2,
      total: 7,
    });
    expect(headers).to.deep.equal({
      'X-Total-Count': '7',
      Link: '</items?artist=A+B&offset=4&limit=2>; rel="next", </items?artist=A+B&offset=0&limit=2>; rel="prev"',
    });
  });

  it('never give prev a negative offset, nor one past the last item', () => {
    const small = headersFor('/items', {
      params: { offset: 1, limit: 5 },
      shown: 5,
      total: 9,
    });
    expect(small.Link).to.equal(
      '</items?offset=6&limit=5>; rel="next", </items?offset=0&limit=5>; rel="prev"',
    );
    const past = headersFor('/items', {
      params: { offset: 50, limit: 5 },
      shown: 0,
      total: 12,
    });
    expect(past.Link).to.equal('</items?offset=7&limit=5>; rel="prev"');
  });

  it('has no next page without a limit, and no Link on a single page', () => {
    const all = headersFor('/items', { params: { offset: 3 }, shown: 4, total: 7 });
    expect(all.Link).to.equal('</items?offset=0&limit=3>; rel="prev"');
    const one = headersFor('/items', { params: {}, shown: 7, total: 7 });
    expect(one).to.deep.equal({ 'X-Total-Count': '7' });
  });
});

describe('paging headers with a cursor and a counted total', () => {
  it('give next the cursor in place of an offset, and keep prev by offset', () => {
    const headers = headersFor('/items', {
      params: { genre: 'g', offset: 4, limit: 2 },
      shown: 2,
      total: 10_000,
      totalAtLeast: true,
      nextCursor: 'abc_-1',
    });
    expect(headers).to.deep.equal({
      'X-Total-Count': '10000',
      'X-Total-Count-Relation': 'gte',
      Link: '</items?genre=g&cursor=abc_-1&limit=2>; rel="next", </items?genre=g&offset=2&limit=2>; rel="prev"',
    });
  });

  it('start prev from the offset asked when the total is only a lower bound', () => {
    // 1,030 match, counted up to 1,000: the page at 1,020 exists, its prev is at 1,015.
    const headers = headersFor('/items', {
      params: { before: 2000, offset: 1020, limit: 5 },
      total: 1000,
      totalAtLeast: true,
      nextCursor: 'c1',
    });
    expect(headers.Link).to.equal(
      '</items?before=2000&cursor=c1&limit=5>; rel="next", </items?before=2000&offset=1015&limit=5>; rel="prev"',
    );
    const noLimit = headersFor('/items', {
      params: { offset: 1500 },
      total: 1000,
      totalAtLeast: true,
      nextCursor: undefined,
    });
    expect(noLimit.Link).to.equal('</items?offset=500&limit=1000>; rel="prev"');
  });

  it('have no next on the last page, and no prev on a page reached by a cursor', () => {
    const last = headersFor('/items', {
      params: { cursor: 'xyz', limit: 2 },
      shown: 1,
      total: 3,
      totalAtLeast: false,
      nextCursor: undefined,
    });
    expect(last).to.deep.equal({ 'X-Total-Count': '3', 'X-Total-Count-Relation': 'eq' });
    const middle = headersFor('/items', {
      params: { cursor: 'xyz', limit: 2 },
      shown: 2,
      total: 9,
      nextCursor: 'next1',
    });
    expect(middle.Link).to.equal('</items?cursor=next1&limit=2>; rel="next"');
  });
});
