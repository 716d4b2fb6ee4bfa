import Mocha from 'mocha';

const { Spec, Base } = Mocha.reporters;
const { EVENT_RUN_BEGIN } = Mocha.Runner.constants;

/**
 * Mocha's spec reporter, but the tests of a suite marked by `notRunHere` (a store this machine
 * does not have) are not listed one by one: one line says how many they are and how to run
 * them, before any test runs. They stay pending, in the pending count of the summary.
 */
export default class QuietPendingSpec extends Spec {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(withoutNotRunHere(runner), options);
    runner.once(EVENT_RUN_BEGIN, () => {
      for (const [reason, count] of countNotRunHere(runner.suite)) {
        Base.consoleLog(`  ${count} ${reason}`);
      }
    });
  }
}

const REASON = Symbol.for('cd-service.notRunHere');

type Marked = { [REASON]?: string; parent?: Marked | undefined };

/** Marks a suite whose tests cannot run here; `reason` follows their count in the one line. */
export function notRunHere(suite: Mocha.Suite, reason: string): void {
  (suite as Marked)[REASON] = reason;
}

/** Why a suite or test does not run here: the mark of itself or of a suite around it. */
function reasonOf(runnable: unknown): string | undefined {
  for (let node = runnable as Marked | undefined; node; node = node.parent) {
    if (node[REASON]) return node[REASON];
  }
  return undefined;
}

/** How many tests each reason holds back, in the order the suites were defined. */
function countNotRunHere(root: Mocha.Suite): Map<string, number> {
  const counts = new Map<string, number>();
  const visit = (suite: Mocha.Suite) => {
    for (const test of suite.tests) {
      const reason = reasonOf(test);
      if (reason) counts.set(reason, (counts.get(reason) ?? 0) + 1);
    }
    for (const child of suite.suites) visit(child);
  };
  visit(root);
  return counts;
}

/** The runner as the spec reporter sees it: no event about a marked suite or test. */
function withoutNotRunHere(runner: Mocha.Runner): Mocha.Runner {
  return new Proxy(runner, {
    get(target, key, receiver) {
      if (key !== 'on' && key !== 'once') return Reflect.get(target, key, target);
      return (event: string, listener: (...args: unknown[]) => void) => {
        target[key](event, (...args: unknown[]) => {
          if (reasonOf(args[0]) === undefined) listener(...args);
        });
        return receiver;
      };
    },
  });
}
