import type { ListQuery, SortKey } from '../cd/query.js';
import type { Cd, CdChanges, CdRecord } from '../cd/schema.js';

export const STORE_KINDS = ['sqlite', 'mongodb'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/** What a list's headers tell of one page: how many records match in all, where the next starts. */
export interface PageSummary {
  /** How many match; when totalAtLeast, at least this many (COUNT_LIMIT): counting stopped. */
  total: number;
  totalAtLeast: boolean;
  /** The sort key of the page's last CD when more CDs follow: where the next page starts. */
  next: SortKey | undefined;
}

/** One page of a list, and what its headers tell. */
export interface Page extends PageSummary {
  items: Cd[] | { title: string }[];
}

/**
 * A stored CD and the version of its record: 1 when it is created, one more with each change,
 * kept in the store with the record (so every replica reads the same one).
 */
export interface VersionedCd {
  cd: Cd;
  version: number;
}

/**
 * The condition of a write, from a client's If-Match and If-None-Match: the CD must be at one of
 * the versions `in` names, and at none of those `notIn` names; a list left out sets no
 * condition. The check and the write are one atomic step of the store.
 */
export interface VersionCondition {
  readonly in?: readonly number[];
  readonly notIn?: readonly number[];
}

/** Whether a write under `condition` depends on the CD's version. */
export const isConditional = (condition: VersionCondition | undefined): boolean =>
  condition?.in !== undefined || condition?.notIn !== undefined;

/**
 * Where CDs live. Both stores behave alike for every client-visible detail; the service
 * computes ids, timestamps and filter keys, the store only keeps and finds records.
 * A promise resolved by a write means that the write is durable. A store that cannot serve now
 * throws StoreUnavailable (cd/errors.ts).
 */
export interface CdStore {
  readonly kind: StoreKind;
  /** The new CD, at version 1. */
  insert(record: CdRecord): Promise<VersionedCd>;
  get(id: string): Promise<VersionedCd | undefined>;
  /**
   * The updated CD, at its next version, or undefined when there is none with this id. When the
   * CD's version does not meet `condition`, throws VersionMismatch.
   */
  update(
    id: string,
    changes: CdChanges,
    condition?: VersionCondition,
  ): Promise<VersionedCd | undefined>;
  /**
   * Whether there was a CD with this id (then removed). When the CD's version does not meet
   * `condition`, throws VersionMismatch.
   */
  delete(id: string, condition?: VersionCondition): Promise<boolean>;
  list(query: ListQuery): Promise<Page>;
  /** The page's summary as `list` gives it, without reading the page's CDs. */
  summarize(query: ListQuery): Promise<PageSummary>;
  /**
   * The version of the whole collection: it changes with every write that changes a CD (SQLite:
   * in the write's own transaction; MongoDB: after the write, before its answer), and names this
   * store (a database made afresh never repeats an earlier one's). Read it before a list: a list
   * read after it is at least as new.
   */
  listVersion(): Promise<string>;
  count(): Promise<number>;
  /**
   * Loads the sample collection on the store's first start: only when it has never been
   * seeded and holds no CD. Returns how many were inserted. The records are taken one at a
   * time (a generator reading the seed file as a stream), never all in memory.
   */
  seedOnce(records: Iterable<CdRecord>): Promise<number>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /**
   * Whether the last write failed because the store could not take it (SQLite: a full disk, a
   * file that may not grow, a file gone); the next write that succeeds clears it.
   */
  writesFailing(): boolean;
  close(): Promise<void>;
}
