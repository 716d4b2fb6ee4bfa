import Mocha from 'mocha';

/** Why a test was skipped, and whether its whole suite was (from a `before` hook). */
export interface Skip {
  reason: string;
  wholeSuite: boolean;
}

// Mocha's pending tests carry no reason: the reasons given to `skip` are kept here, for the
// reporter (reporter.ts), keyed by the test or suite they skip.
const reasons = new WeakMap<Mocha.Runnable | Mocha.Suite, string>();

/**
 * Skips as mocha documents (`this.skip()`), once the reason is handed to the reporter, which
 * prints it. Called in a test, it skips that test, listed with the reason; called in a `before`
 * hook, it skips every test of the suite, and the reporter counts them in one line per reason:
 * `${count} ${reason}`. (The suite's `after` hooks still run.)
 */
export function skip(context: Mocha.Context, reason: string): never {
  const runnable = context.test;
  if (runnable)
    reasons.set(runnable instanceof Mocha.Hook ? (runnable.parent ?? runnable) : runnable, reason);
  return context.skip();
}

/** Why a pending test was skipped, if `skip` was told why: for it, or for a suite around it. */
export function skipOf(test: Mocha.Test): Skip | undefined {
  const own = reasons.get(test);
  if (own !== undefined) return { reason: own, wholeSuite: false };
  for (let suite = test.parent; suite; suite = suite.parent) {
    const reason = reasons.get(suite);
    if (reason !== undefined) return { reason, wholeSuite: true };
  }
  return undefined;
}
