import Mocha from 'mocha';
import { skipOf } from './skip.js';

const { Base } = Mocha.reporters;
const {
  EVENT_RUN_BEGIN,
  EVENT_RUN_END,
  EVENT_SUITE_BEGIN,
  EVENT_SUITE_END,
  EVENT_TEST_BEGIN,
  EVENT_TEST_FAIL,
  EVENT_TEST_PASS,
  EVENT_TEST_PENDING,
} = Mocha.Runner.constants;

/**
 * The spec reporter's output, with the reasons given to `skip` (skip.ts): a test skipped by
 * itself is listed with its reason; the tests of a suite skipped whole (a MongoDB this machine
 * does not have) are not listed one by one, but counted at the end in one line per reason. They
 * all stay in the summary's pending count.
 *
 * Written as mocha's custom reporter tutorial shows: Base, and the runner's events. A suite's
 * title is printed once something in it is: a suite skipped whole prints nothing.
 */
export default class SpecWithSkipReasons extends Base {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const { color } = Base;
    /** The suites begun and not ended, the root first; the first `shown` have their title out. */
    const open: Mocha.Suite[] = [];
    let shown = 0;
    let failures = 0;
    const notRun = new Map<string, number>();

    const showTitles = () => {
      for (; shown < open.length; shown++) {
        Base.consoleLog(color('suite', '%s%s'), '  '.repeat(shown), open[shown]?.title);
      }
    };
    /** A line about a test (or hook) of the innermost suite, under its titles. */
    const line = (format: string, ...args: unknown[]) => {
      showTitles();
      Base.consoleLog('  '.repeat(open.length - 1) + format, ...args);
    };

    runner
      .once(EVENT_RUN_BEGIN, () => Base.consoleLog())
      .on(EVENT_SUITE_BEGIN, (suite) => {
        open.push(suite);
      })
      .on(EVENT_SUITE_END, () => {
        const wasShown = shown === open.length;
        open.pop();
        shown = Math.min(shown, open.length);
        if (wasShown && open.length === 1) Base.consoleLog();
      })
      .on(EVENT_TEST_BEGIN, showTitles)
      .on(EVENT_TEST_PASS, (test) => {
        const ok = color('checkmark', `  ${Base.symbols.ok}`) + color('pass', ' %s');
        if (test.speed === 'fast') line(ok, test.title);
        else line(ok + color(test.speed ?? 'medium', ' (%dms)'), test.title, test.duration);
      })
      .on(EVENT_TEST_FAIL, (test) => {
        line(color('fail', '  %d) %s'), ++failures, test.title);
      })
      .on(EVENT_TEST_PENDING, (test) => {
        const skipped = skipOf(test);
        if (skipped?.wholeSuite) {
          notRun.set(skipped.reason, (notRun.get(skipped.reason) ?? 0) + 1);
        } else if (skipped) {
          line(color('pending', '  - %s (skipped: %s)'), test.title, skipped.reason);
        } else {
          line(color('pending', '  - %s'), test.title);
        }
      })
      .once(EVENT_RUN_END, () => {
        for (const [reason, count] of notRun) Base.consoleLog(`  ${count} ${reason}`);
        this.epilogue();
      });
  }
}
