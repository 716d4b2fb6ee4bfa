import { accessSync, constants, statSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import { expect } from 'chai';
import { type Browser, chromium, type Page } from 'playwright-core';

/**
 * Debian's Chromium builds, lightest first: the headless shell (what Playwright itself runs for
 * headless tests) costs less CPU than the full browser, for the same results.
 */
const DEBIAN_CHROMIUMS = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'] as const;

/** The Chromium that CHROMIUM_PATH names, else the first of `candidates` that is installed. */
export function chooseChromium(
  env: NodeJS.ProcessEnv = process.env,
  candidates: readonly string[] = DEBIAN_CHROMIUMS,
): string {
  return (
    env.CHROMIUM_PATH ||
    candidates.find((path) => missingChromium(path) === undefined) ||
    (candidates[0] as string)
  );
}

/** The Chromium the browser tests drive (chooseChromium, when this module loads). */
export const CHROMIUM = chooseChromium();

/**
 * Why the browser tests cannot run with the Chromium at `path`, in one line that says what to
 * install; undefined when it is an executable file.
 */
export function missingChromium(path: string = CHROMIUM): string | undefined {
  try {
    if (statSync(path).isFile()) {
      accessSync(path, constants.X_OK);
      return undefined;
    }
  } catch {}
  return (
    `No Chromium at ${path} for the browser tests: install it (apt-get install chromium-headless-shell) ` +
    'or set CHROMIUM_PATH to a Chromium binary'
  );
}

/**
 * Debian's Chromium (or the one at `path`), headless, with the flags this sandboxed machine
 * needs. Without it, fails with the line of missingChromium rather than Playwright's error.
 */
export async function launchBrowser(path: string = CHROMIUM): Promise<Browser> {
  const missing = missingChromium(path);
  if (missing) throw new Error(missing);
  return chromium.launch({
    executablePath: path,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Text in a substituted font is measured as the full browser measures it (the shell
      // otherwise rounds it to whole pixels), so that the overflow checks agree with it.
      '--font-render-hinting=none',
      // Shared memory in /tmp: Docker gives a container 64 MB of /dev/shm, too little for a page.
      '--disable-dev-shm-usage',
    ],
  });
}

/**
 * Runs axe on the page and fails with the list of violations, if any. axe runs in the page itself
 * (its legacy mode), in half the time of its default run, which opens a blank page each time to
 * gather the results of frames: none of the services' pages has a frame, and one that has fails
 * here, saying so, rather than go partly unchecked.
 */
export async function expectAccessible(page: Page): Promise<void> {
  const where = `${page.url()} at ${page.viewportSize()?.width}px`;
  const frames = (await page.evaluate('window.frames.length')) as number;
  if (frames > 0) {
    expect.fail(`${where}: the page has ${frames} frame(s), which expectAccessible does not check`);
  }
  const { violations } = await new AxeBuilder({ page }).setLegacyMode().analyze();
  const summary = violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
  if (summary.length > 0) {
    expect.fail(`${where}: ${summary.length} accessibility violations\n  ${summary.join('\n  ')}`);
  }
}
