import type { ListQuery, SortKey } from '../cd/query.js';
import type { Cd, CdChanges, CdRecord } from '../cd/schema.js';

export const STORE_KINDS = ['sqlite', 'mongodb'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/** One page of a list, and how many records match in all. */
export interface Page {
  items: Cd[] | { title: string }[];
  /** How many match; when totalAtLeast, at least this many (COUNT_LIMIT): counting stopped. */
  total: number;
  totalAtLeast: boolean;
  /** The sort key of the page's last CD when more CDs follow: where the next page starts. */
  next: SortKey | undefined;
}

/**
 * Where CDs live. Both stores behave alike for every client-visible detail; the service
 * computes ids, timestamps and filter keys, the store only keeps and finds records.
 * A promise resolved by a write means that the write is durable.
 */
export interface CdStore {
  readonly kind: StoreKind;
  insert(record: CdRecord): Promise<Cd>;
  get(id: string): Promise<Cd | undefined>;
  /** The updated CD, or undefined when there is none with this id. */
  update(id: string, changes: CdChanges): Promise<Cd | undefined>;
  /** Whether there was a CD with this id. */
  delete(id: string): Promise<boolean>;
  list(query: ListQuery): Promise<Page>;
  count(): Promise<number>;
  /**
   * Loads the sample collection on the store's first start: only when it has never been
   * seeded and holds no CD. Returns how many were inserted. The records are taken one at a
   * time (a generator reading the seed file as a stream), never all in memory.
   */
  seedOnce(records: Iterable<CdRecord>): Promise<number>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
