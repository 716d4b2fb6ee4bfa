// Hand-written: no maintained package schedules work one task per event-loop turn (p-limit and
// p-queue bound how many run at once, and would start them all in one turn).

/**
 * Gives each caller an event-loop turn of its own, in the order they asked: `await turn()` resolves
 * in a setImmediate callback, and the next waiting caller is let through only on the following
 * turn. A synchronous read (SQLite's) started right after it holds that turn alone, so that
 * between two reads the loop accepts connections and reads requests: a probe (`/readyz`,
 * `/livez`) or a small request waits for at most one read at a time, not for every read that
 * arrived with it.
 */
export function readTurns(): () => Promise<void> {
  const waiting: (() => void)[] = [];
  let scheduled = false;
  const letNextThrough = () => {
    const next = waiting.shift();
    if (next === undefined) {
      scheduled = false;
      return;
    }
    // The caller's continuation runs in this callback's microtasks; the next one, next turn.
    next();
    setImmediate(letNextThrough);
  };
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (!scheduled) {
        scheduled = true;
        setImmediate(letNextThrough);
      }
    });
}
