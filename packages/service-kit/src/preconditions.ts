// Hand-written: jshttp/fresh reads no If-Match and says "not fresh" whenever a request says
// no-cache; no maintained package evaluates RFC 9110's preconditions over plain header values.

/** An entity tag (RFC 9110 §8.8.3): its opaque value, without quotes, and whether it is weak. */
export interface EntityTag {
  opaque: string;
  weak: boolean;
}

/**
 * What an If-Match or If-None-Match says: `*` (any current representation), a list of tags, or
 * `unreadable` (neither: a header the request sent but that names no tag).
 */
export type TagCondition = '*' | readonly EntityTag[] | 'unreadable';

/** A request's preconditions, each read once; a date that is not an HTTP-date is left out. */
export interface Preconditions {
  ifMatch?: TagCondition;
  ifNoneMatch?: TagCondition;
  /** Milliseconds since the epoch. */
  ifModifiedSince?: number;
  ifUnmodifiedSince?: number;
}

/** The representation a request's preconditions are judged against: its validators. */
export interface Current {
  /** Its ETag header value (`"3"`, `W/"a-b"`). */
  etag?: string;
  /** Its Last-Modified header value. */
  lastModified?: string;
}

export type PreconditionField = 'If-Match' | 'If-None-Match' | 'If-Unmodified-Since';

/**
 * Why a precondition does not hold: `weak`, If-Match names the current tag (or the current tag
 * is) weak, and If-Match compares strongly; `unreadable`, If-Match names no tag; `changed`, the
 * representation is at none of the tags (or changed after the date) the client named;
 * `matches`, If-None-Match names the current tag (`*`: any).
 */
export type FailureReason = 'weak' | 'unreadable' | 'changed' | 'matches';

/**
 * The outcome of RFC 9110 §13.2.2: go on with the method; answer 304 (a GET or HEAD); answer
 * 412 naming the precondition that failed; or, for a method other than GET and HEAD, a header
 * that could not be read (a 400: a write does not go ahead on a condition it cannot read).
 */
export type Verdict =
  | { outcome: 'proceed' }
  | { outcome: 'not-modified' }
  | { outcome: 'failed'; field: PreconditionField; reason: FailureReason }
  | { outcome: 'malformed'; field: 'If-Match' | 'If-None-Match' };

/** One element of an entity-tag list, maybe empty (RFC 9110 §8.8.3, §5.6.1), then `,` or end. */
const LIST_ELEMENT = /[ \t]*(?:(W\/)?"([\x21\x23-\x7e\x80-\xff]*)")?[ \t]*(,|$)/y;
const ONE_TAG = /^[ \t]*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"[ \t]*$/;

/** An HTTP-date in any of its three forms: IMF-fixdate, RFC 850's, asctime's (RFC 9110 §5.6.7). */
const HTTP_DATE =
  /^(?:\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT|\w{6,9}, \d{2}-\w{3}-\d{2} \d{2}:\d{2}:\d{2} GMT|\w{3} \w{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/** An If-Match or If-None-Match value: undefined when absent. */
export function parseTagCondition(header: string | undefined): TagCondition | undefined {
  if (header === undefined) return undefined;
  if (header.trim() === '*') return '*';
  const tags: EntityTag[] = [];
  LIST_ELEMENT.lastIndex = 0;
  for (;;) {
    const element = LIST_ELEMENT.exec(header);
    if (!element) return 'unreadable';
    const [, weak, opaque, separator] = element;
    if (opaque !== undefined) tags.push({ opaque, weak: weak !== undefined });
    if (separator === '') return tags;
  }
}

/** An ETag value, or undefined when it is not one tag. */
export function parseEntityTag(value: string | undefined): EntityTag | undefined {
  const match = value === undefined ? null : ONE_TAG.exec(value);
  return match ? { opaque: match[2] ?? '', weak: match[1] !== undefined } : undefined;
}

/** Milliseconds of an HTTP-date; undefined for anything else (RFC 9110 §13.1.3: ignored). */
export function parseHttpDate(value: string | undefined): number | undefined {
  // Date.parse takes `2100` too: only the three forms of an HTTP-date are read.
  if (value === undefined || !HTTP_DATE.test(value)) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}

type Headers = Readonly<Record<string, string | readonly string[] | undefined>>;
const single = (value: string | readonly string[] | undefined) =>
  typeof value === 'string' ? value : undefined;

/** The preconditions of a request's headers (Node's: names in lower case). */
export function readPreconditions(headers: Headers): Preconditions {
  const preconditions: Preconditions = {};
  const ifMatch = parseTagCondition(single(headers['if-match']));
  const ifNoneMatch = parseTagCondition(single(headers['if-none-match']));
  const ifModifiedSince = parseHttpDate(single(headers['if-modified-since']));
  const ifUnmodifiedSince = parseHttpDate(single(headers['if-unmodified-since']));
  if (ifMatch !== undefined) preconditions.ifMatch = ifMatch;
  if (ifNoneMatch !== undefined) preconditions.ifNoneMatch = ifNoneMatch;
  if (ifModifiedSince !== undefined) preconditions.ifModifiedSince = ifModifiedSince;
  if (ifUnmodifiedSince !== undefined) preconditions.ifUnmodifiedSince = ifUnmodifiedSince;
  return preconditions;
}

/** Strong comparison (RFC 9110 §8.8.3.2): both strong, same opaque value. */
const strongMatch = (a: EntityTag, b: EntityTag) => !a.weak && !b.weak && a.opaque === b.opaque;

/**
 * RFC 9110 §13.2.2, in its order, for a request whose method would otherwise succeed on a
 * current representation with these validators (a resource that does not exist is the
 * caller's 404 first): If-Match, compared strongly; without it, If-Unmodified-Since; then
 * If-None-Match, compared weakly; without it, for GET and HEAD, If-Modified-Since. A date is
 * judged only against a Last-Modified. A tag list that cannot be read names no tag on a GET or
 * HEAD (If-Match then fails; If-None-Match holds), and is `malformed` on any other method.
 * A request's `Cache-Control: no-cache` plays no part (RFC 9111 §5.2.1.4 speaks to caches).
 */
export function evaluatePreconditions(
  method: string,
  preconditions: Preconditions,
  current: Current,
): Verdict {
  const safe = method === 'GET' || method === 'HEAD';
  const { ifMatch, ifNoneMatch, ifModifiedSince, ifUnmodifiedSince } = preconditions;
  for (const [field, condition] of [
    ['If-Match', ifMatch],
    ['If-None-Match', ifNoneMatch],
  ] as const) {
    if (condition === 'unreadable' && !safe) return { outcome: 'malformed', field };
  }
  const etag = parseEntityTag(current.etag);
  const lastModified = parseHttpDate(current.lastModified);

  if (ifMatch !== undefined) {
    const reason = ifMatchFailure(ifMatch, etag);
    if (reason) return { outcome: 'failed', field: 'If-Match', reason };
  } else if (ifUnmodifiedSince !== undefined && lastModified !== undefined) {
    if (lastModified > ifUnmodifiedSince) {
      return { outcome: 'failed', field: 'If-Unmodified-Since', reason: 'changed' };
    }
  }

  if (ifNoneMatch !== undefined) {
    const named =
      ifNoneMatch === '*' ||
      (ifNoneMatch !== 'unreadable' &&
        etag !== undefined &&
        ifNoneMatch.some((tag) => tag.opaque === etag.opaque));
    if (named) {
      return safe
        ? { outcome: 'not-modified' }
        : { outcome: 'failed', field: 'If-None-Match', reason: 'matches' };
    }
  } else if (safe && ifModifiedSince !== undefined && lastModified !== undefined) {
    if (lastModified <= ifModifiedSince) return { outcome: 'not-modified' };
  }
  return { outcome: 'proceed' };
}

/** Why If-Match fails against the current tag, or undefined when it holds. */
function ifMatchFailure(
  ifMatch: TagCondition,
  etag: EntityTag | undefined,
): FailureReason | undefined {
  if (ifMatch === '*') return undefined;
  if (ifMatch === 'unreadable') return 'unreadable';
  if (etag !== undefined && ifMatch.some((tag) => strongMatch(tag, etag))) return undefined;
  const weaklyNamed = etag !== undefined && ifMatch.some((tag) => tag.opaque === etag.opaque);
  return weaklyNamed || etag?.weak ? 'weak' : 'changed';
}
