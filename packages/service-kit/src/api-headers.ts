export const PAGING_HEADERS = {
  total: 'X-Total-Count',
  totalRelation: 'X-Total-Count-Relation',
  link: 'Link',
} as const;

/** What a success says of the resource it carries: an error answer drops them. */
const RESOURCE_HEADERS = ['ETag', 'Location', ...Object.values(PAGING_HEADERS)];

const ERROR_HEADERS = ['Retry-After', 'WWW-Authenticate'];

export const EXPOSED_HEADERS = ['X-Request-Id', ...RESOURCE_HEADERS, ...ERROR_HEADERS];

/** An error drops these: the resource's, an earlier error's, the success's caching and encoding. */
const SUCCESS_HEADERS = ['Cache-Control', 'Content-Encoding', 'Last-Modified'];
export const DISCARDED_ON_ERROR = [...RESOURCE_HEADERS, ...ERROR_HEADERS, ...SUCCESS_HEADERS];
