import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { expectAccessible } from './browser.js';

/** The widths every page is checked at: a phone and a laptop. */
export const VIEWPORT_WIDTHS = [390, 1280] as const;

/**
 * What sticks out sideways on the page as it is laid out now: the document wider than the
 * window, and any element or run of text beyond the content box (inside the padding) of the
 * block that contains it. Content of a box that clips or scrolls (`overflow` other than
 * `visible`) and out-of-flow boxes (absolute, fixed: a skip link, a visually hidden label) are
 * left out, as is anything not rendered. Half a pixel is allowed for rounding.
 */
export function overflowProblems(page: Page): Promise<string[]> {
  // A string, not a function: tsx (esbuild's keepNames) would wrap a function's inner
  // functions in a helper that does not exist in the page.
  return page.evaluate(OVERFLOW_SCRIPT) as Promise<string[]>;
}

const OVERFLOW_SCRIPT = `(() => {
  const TOLERANCE = 0.5;
  const problems = [];
  const root = document.documentElement;
  if (root.scrollWidth > window.innerWidth) {
    problems.push('the page is ' + root.scrollWidth + 'px wide in a ' + window.innerWidth + 'px window');
  }
  const snippet = (text) => text.trim().replace(/\\s+/g, ' ').slice(0, 40);
  const label = (el) => {
    const id = el.id ? '#' + el.id : '';
    const classes = [...el.classList].map((c) => '.' + c).join('');
    const text = snippet(el.textContent || '');
    return el.tagName.toLowerCase() + id + classes + (text ? ' "' + text + '"' : '');
  };
  const isInline = (el) => /^(inline|contents)$/.test(getComputedStyle(el).display);
  const skipped = new WeakSet();
  const isSkipped = (el) => {
    for (let node = el; node; node = node.parentElement) if (skipped.has(node)) return true;
    return false;
  };
  // The block that lays an element out: its nearest ancestor that is not inline.
  const containerOf = (el) => {
    let node = el.parentElement;
    while (node && isInline(node)) node = node.parentElement;
    return node;
  };
  const contentBox = (el) => {
    const rect = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    const px = (value) => Number.parseFloat(value) || 0;
    return {
      left: rect.left + px(style.borderLeftWidth) + px(style.paddingLeft),
      right: rect.right - px(style.borderRightWidth) - px(style.paddingRight),
    };
  };
  const check = (what, rect, container) => {
    if (!container || container === root || (rect.width === 0 && rect.height === 0)) return;
    const box = contentBox(container);
    const right = rect.right - box.right;
    const left = box.left - rect.left;
    if (right > TOLERANCE || left > TOLERANCE) {
      const side = right > left ? right.toFixed(1) + 'px on the right' : left.toFixed(1) + 'px on the left';
      problems.push(what + ' sticks out of ' + label(container) + ' by ' + side);
    }
  };
  for (const el of document.body.querySelectorAll('*')) {
    const style = getComputedStyle(el);
    if (style.position === 'absolute' || style.position === 'fixed' || style.display === 'none') {
      skipped.add(el);
      continue;
    }
    const parent = el.parentElement;
    if (parent && getComputedStyle(parent).overflowX !== 'visible') skipped.add(el);
    if (isSkipped(el)) continue;
    check(label(el), el.getBoundingClientRect(), containerOf(el));
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || isSkipped(parent) || snippet(node.textContent || '') === '') continue;
    if (getComputedStyle(parent).overflowX !== 'visible') continue;
    range.selectNodeContents(node);
    const container = isInline(parent) ? containerOf(parent) : parent;
    check('the text "' + snippet(node.textContent || '') + '"', range.getBoundingClientRect(), container);
  }
  return problems;
})()`;

/** Fails, listing the problems found on the page (if any), each line under `what`. */
async function expectNone(page: Page, found: Promise<string[]>, what: string): Promise<void> {
  const problems = await found;
  if (problems.length > 0) {
    const where = `${page.url()} at ${page.viewportSize()?.width}px`;
    expect.fail(`${where}: ${problems.length} ${what}\n  ${problems.join('\n  ')}`);
  }
}

/** Fails, listing what sticks out, when anything overflows sideways (see overflowProblems). */
export const expectNoOverflow = (page: Page): Promise<void> =>
  expectNone(page, overflowProblems(page), 'overflowing');

/**
 * Code split inside a word across two lines, as laid out now: each word of inline code (up to
 * a space, or through a slash) must sit on one line, so that `If-None-Match` never reads as
 * `If-` and `None-Match`. Code blocks (`pre`) are left out.
 */
export function brokenCodeWords(page: Page): Promise<string[]> {
  return page.evaluate(BROKEN_CODE_SCRIPT) as Promise<string[]>;
}

const BROKEN_CODE_SCRIPT = `(() => {
  const problems = [];
  const range = document.createRange();
  for (const code of document.querySelectorAll('code')) {
    if (code.closest('pre')) continue;
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.textContent.matchAll(/[^\\s/]+\\/?/g)) {
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.bottom)));
        if (lines.size > 1) problems.push('the code "' + word[0] + '" breaks across ' + lines.size + ' lines');
      }
    }
  }
  return problems;
})()`;

/** Fails, listing them, when a word of inline code breaks across lines (see brokenCodeWords). */
export const expectWholeCodeWords = (page: Page): Promise<void> =>
  expectNone(page, brokenCodeWords(page), 'code words broken');

export interface PageCheckOptions {
  widths?: readonly number[];
  /**
   * Run axe too (default), at the first width only: its rules read the document, its names,
   * roles and colours, which the width does not change, and it takes seconds a run. Pages of
   * one template differ only in their text: axe on one of them speaks for the rest, which still
   * get the layout checks.
   */
  accessibility?: boolean;
  /** Where to save a full-page screenshot at each width (default: `SCREENSHOT_DIR`, else none). */
  screenshotDir?: string | undefined;
}

/**
 * Loads the URL at each width (390 and 1280 px by default) and checks that nothing overflows
 * sideways and that no word of inline code breaks across lines; at the first width, unless told
 * not to, that axe finds no violation. With a screenshot folder, saves what it saw.
 */
export async function checkPageAtWidths(
  page: Page,
  url: string,
  {
    widths = VIEWPORT_WIDTHS,
    accessibility = true,
    screenshotDir = process.env.SCREENSHOT_DIR,
  }: PageCheckOptions = {},
): Promise<void> {
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(url);
    if (screenshotDir) {
      mkdirSync(screenshotDir, { recursive: true });
      const { pathname, search } = new URL(page.url());
      const name = `${pathname}${search}`.replace(/[^\w-]+/g, '_').replace(/^_|_$/g, '') || 'home';
      await page.screenshot({ path: join(screenshotDir, `${name}-${width}.png`), fullPage: true });
    }
    await expectNoOverflow(page);
    await expectWholeCodeWords(page);
    if (accessibility && width === widths[0]) await expectAccessible(page);
  }
}
