import type { Database } from 'better-sqlite3';

interface Pending {
  write: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Group commit: the writes asked for in one event-loop turn are committed together in one
 * transaction (one fsync) on setImmediate, and each promise settles only after that commit,
 * so that a resolved write is a durable one. Each write runs in its own savepoint: one that
 * fails is rolled back alone and rejects alone. When a failure made SQLite roll back the whole
 * transaction (a full disk, an I/O error, a lock), the batch stops there and every write of it
 * rejects: none was committed, and none runs outside the transaction.
 *
 * `verify`, when given, is called before and after each commit; when it throws, every write of
 * the batch rejects with its error: before, nothing is written; after, the writes went where
 * `verify` says they must not be acknowledged (a database file deleted or moved meanwhile).
 */
export class WriteBatcher {
  #queue: Pending[] = [];
  readonly #commit: (batch: Pending[]) => Outcome[];
  readonly #verify: () => void;

  constructor(db: Database, verify: () => void = () => {}) {
    this.#verify = verify;
    const inSavepoint = db.transaction((write: () => unknown) => write());
    this.#commit = db.transaction((batch: Pending[]) =>
      batch.map(({ write }): Outcome => {
        try {
          return { ok: true, value: inSavepoint(write) };
        } catch (error) {
          if (!db.inTransaction) throw error;
          return { ok: false, error };
        }
      }),
    ).immediate;
  }

  run<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.#queue.length === 0) setImmediate(() => this.flush());
      this.#queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /** Commits what is queued now (also called on close). */
  flush(): void {
    const batch = this.#queue;
    this.#queue = [];
    if (batch.length === 0) return;
    let outcomes: Outcome[];
    try {
      this.#verify();
      outcomes = this.#commit(batch);
      this.#verify();
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    batch.forEach((pending, index) => {
      const outcome = outcomes[index];
      if (outcome?.ok) pending.resolve(outcome.value);
      else pending.reject(outcome?.error);
    });
  }
}
