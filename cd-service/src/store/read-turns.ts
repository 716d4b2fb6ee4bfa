// Hand-written: no maintained package bounds the synchronous work of one event-loop turn (p-limit
// and p-queue bound how many tasks run at once, not how long a turn lasts).

/** The reads one event-loop turn may hold before the next read waits for the next turn. */
export const TURN_BUDGET_MS = 20;

export interface ReadTurns {
  /**
   * Undefined when the read may run now: the reads of this turn took less than the budget so far
   * and none waits. Otherwise a promise that resolves on a later turn, in the order of asking.
   */
  enter(): Promise<void> | undefined;
  /** Ends a read begun after `enter`; `startedAt` is `performance.now()` at its start. */
  leave(startedAt: number): void;
}

/**
 * Bounds how long synchronous reads (SQLite's) hold the event loop in one turn: once the reads of a
 * turn took `budgetMs`, the next ones wait for the following turns, in order, as much of them
 * again each. Between two turns Node accepts connections and reads requests, so a probe
 * (`/readyz`, `/livez`) waits for about one budget's reads, not for every read that arrived with
 * it; cheap reads (a page of 20) run at once, as if there were no budget.
 */
export function readTurns(budgetMs = TURN_BUDGET_MS): ReadTurns {
  const waiting: (() => void)[] = [];
  let spent = 0;
  let turnScheduled = false;
  /** A new turn: its budget is whole again; the first waiting read goes (the next ones on leave). */
  const newTurn = () => {
    turnScheduled = false;
    spent = 0;
    waiting.shift()?.();
  };
  const endThisTurnSoon = () => {
    if (turnScheduled) return;
    turnScheduled = true;
    setImmediate(newTurn);
  };
  return {
    enter() {
      if (spent < budgetMs && waiting.length === 0) return undefined;
      endThisTurnSoon();
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    leave(startedAt) {
      spent += performance.now() - startedAt;
      endThisTurnSoon();
      if (spent < budgetMs) waiting.shift()?.();
    },
  };
}
