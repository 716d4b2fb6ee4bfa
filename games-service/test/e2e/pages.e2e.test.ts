import { expect } from 'chai';
import { useBrowser } from 'service-kit/testing';
import { createApp } from '../../src/app.js';
import { Catalogue } from '../../src/catalogue/catalogue.js';
import { SEARCH_PAGE_SIZE } from '../../src/routes/pages.js';
import { seededCatalogue as catalogue, seededApp } from '../helpers.js';

type Page = Awaited<ReturnType<ReturnType<typeof useBrowser>['newPage']>>;

/** How many cards each row of a grid holds, top to bottom. */
const rowsOf = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((cards) => {
    const rows = new Map<number, number>();
    for (const card of cards) {
      const top = Math.round(card.getBoundingClientRect().top);
      rows.set(top, (rows.get(top) ?? 0) + 1);
    }
    return [...rows.values()];
  });

describe('pages in Chromium', function () {
  // Chromium aborts a navigation (net::ERR_NETWORK_CHANGED) when a network interface comes or
  // goes, as Docker's do beside these tests in CI: a test that failed so gets one more run.
  this.retries(1);
  this.timeout(120_000);
  let page: Page;
  const unrated = catalogue.games.find((game) => game.rating === null);

  const session = useBrowser(() => seededApp());
  beforeEach(async () => {
    page = await session.newPage();
  });

  it('follows every navigation link', async () => {
    const targets = [
      ['Top rated', /\/top-rated$/, 'Top rated'],
      ['Hidden gems', /\/hidden-gems$/, 'Hidden gems'],
      ['All games', /\/search$/, 'All games'],
      ['Random game', /\/games\/\d+$/, null],
      ['Home', /\/$/, 'Discover something to play'],
    ] as const;
    await page.goto(session.url);
    for (const [name, path, heading] of targets) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
      await page.waitForURL(path);
      const h1 = await page.locator('h1').textContent();
      if (heading) expect(h1).to.equal(heading);
      else expect(catalogue.games.map((g) => g.title)).to.include(h1);
    }
  });

  it('opens a game from a card of the home page, and shows its recommendations as cards', async () => {
    await page.goto(session.url);
    const cards = page.locator('.game-card');
    expect(await cards.count()).to.equal(9);
    const title = await cards.first().locator('h2').textContent();
    // The whole card is the link, its cover included.
    await cards.first().locator('img').click({ force: true });
    await page.waitForURL(/\/games\/\d+$/);
    expect(await page.locator('h1').textContent()).to.equal(title);
    expect(await page.locator('.recommendations .game-card').count()).to.equal(3);
  });

  it('searches from the header without JavaScript, then pages and browses by genre', async () => {
    page = await session.newPage({ javaScriptEnabled: false });
    await page.goto(`${session.url}/top-rated`);
    await page.getByRole('searchbox', { name: 'Search games' }).fill('the');
    await page
      .getByRole('search', { name: 'Site' })
      .getByRole('button', { name: 'Search' })
      .click();
    await page.waitForURL(/\/search\?q=the$/);
    expect(await page.locator('h1').textContent()).to.equal('Games matching “the”');
    expect(await page.title()).to.equal('Games matching “the” · Game Shelf');
    const firstPage = await page.locator('.game-card h2').allTextContents();
    const matching = catalogue.games
      .filter((g) => /(^|\W)the/i.test(`${g.title} ${g.developer}`))
      .map((g) => g.title);
    expect(firstPage.length).to.be.above(0);
    expect(matching).to.include.members(firstPage);

    await page.getByRole('combobox', { name: 'Genre' }).selectOption('RPG');
    await page.getByRole('search', { name: 'Catalogue' }).getByRole('button').click();
    await page.waitForURL(/\/search\?q=the&genre=RPG&sort=$/);
    // What the form sends (an empty sort among them) is a search, not an error.
    expect(await page.locator('h1').textContent()).to.equal('RPG games matching “the”');
    const metas = await page.locator('.game-card__meta').allTextContents();
    expect(metas.length).to.be.above(0);
    for (const meta of metas) expect(meta).to.include('RPG');

    await page.goto(`${session.url}/search`);
    await page.getByRole('link', { name: 'Next →' }).click();
    await page.waitForURL(/\/search\?page=2$/);
    expect(await page.locator('.pagination__status').textContent()).to.match(/^Page 2 of \d+$/);

    await page.getByRole('link', { name: /^Horror \(\d+\)$/ }).click();
    await page.waitForURL(/\/search\?genre=Horror$/);
    expect(await page.locator('h1').textContent()).to.equal('Horror games');
  });

  it('says so when a search finds nothing', async () => {
    await page.goto(`${session.url}/search?q=xyzzy`);
    expect(await page.getByRole('heading', { name: 'No game matches' }).isVisible()).to.equal(true);
    expect(await page.locator('.game-card').count()).to.equal(0);
  });

  it('loads the stylesheet and every cover without breaking the content security policy', async () => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
    await page.goto(`${session.url}/hidden-gems`);
    const background = await page
      .locator('.site-header')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).to.not.equal('rgba(0, 0, 0, 0)');
    const covers = page.locator('img.game-card__cover');
    expect(await covers.count()).to.equal(catalogue.hiddenGems().length);
    for (const cover of await covers.all()) {
      await cover.scrollIntoViewIfNeeded();
      await cover.evaluate((img: HTMLImageElement) => img.decode());
      expect(await cover.evaluate((img: HTMLImageElement) => img.naturalWidth)).to.equal(300);
    }
    expect(problems).to.deep.equal([]);
  });

  it('lays out grids with no lone card on the last row at 1280 px', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(session.url);
    expect(await rowsOf(page, '.game-grid > li')).to.deep.equal([3, 3, 3]);
    await page.goto(`${session.url}/games/1`);
    expect(await rowsOf(page, '.game-grid > li')).to.deep.equal([3]);
    // 3n + 1 cards (16 Horror games would leave one alone): the last four make two rows.
    for (const path of [
      '/hidden-gems',
      '/search?genre=Horror',
      '/search?genre=RPG',
      '/search?page=7',
    ]) {
      await page.goto(session.url + path);
      const rows = await rowsOf(page, '.game-grid > li');
      expect(rows.length, path).to.be.above(0);
      if (rows.reduce((a, b) => a + b) > 1) expect(rows.at(-1), `${path}: ${rows}`).to.be.above(1);
    }
  });

  it('keeps every card wide enough to read at a tablet width (768 px)', async () => {
    await page.setViewportSize({ width: 768, height: 900 });
    // An odd count in two columns: the last card takes the row rather than squeezing three in it.
    for (const path of ['/', '/games/1', '/hidden-gems']) {
      await page.goto(session.url + path);
      const widths = await page
        .locator('.game-grid .game-card')
        .evaluateAll((cards) => cards.map((card) => card.getBoundingClientRect().width));
      expect(widths.length, path).to.be.above(0);
      expect(Math.min(...widths), path).to.be.at.least(300);
    }
  });

  for (const width of [390, 1280]) {
    it(`puts each rank at the top of its card, level with the title, at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${session.url}/top-rated`);
      const cards = await page.locator('.ranked-list > li').evaluateAll((items) =>
        items.map((item) => {
          const card = (item.querySelector('.game-card') as Element).getBoundingClientRect();
          const rank = item.querySelector('.game-card__rank') as HTMLElement;
          const box = rank.getBoundingClientRect();
          const range = document.createRange();
          range.selectNodeContents(item.querySelector('.game-card__link') as Node);
          const firstLine = range.getClientRects()[0] as DOMRect;
          return {
            rank: rank.textContent,
            marker: getComputedStyle(item).listStyleType,
            inside: box.left >= card.left && box.right <= card.right,
            fromTop: box.top - card.top,
            offTitle: Math.abs((box.top + box.bottom) / 2 - (firstLine.top + firstLine.bottom) / 2),
          };
        }),
      );
      expect(cards.map((card) => card.rank)).to.deep.equal(cards.map((_, i) => String(i + 1)));
      for (const card of cards) {
        const where = `rank ${card.rank} at ${width} px`;
        expect(card.marker, where).to.equal('none');
        expect(card.inside, where).to.equal(true);
        expect(card.fromTop, where).to.be.within(0, 32);
        expect(card.offTitle, where).to.be.at.most(3);
      }
    });

    it(`shows one search box on the search page, with the query, and the genres in reader order, at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${session.url}/search?q=zelda`);
      const boxes = page.getByRole('searchbox');
      expect(await boxes.count()).to.equal(1);
      expect(await boxes.first().isVisible()).to.equal(true);
      expect(await boxes.first().inputValue()).to.equal('zelda');
      const genres = (
        await page.locator('#browse-title + .genre-list .genre-list__link').allInnerTexts()
      ).map((text) => text.replace(/\s*\(\d+\)$/, ''));
      expect(genres).to.deep.equal(
        [...genres].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })),
      );
      expect(genres.indexOf('Racing')).to.be.within(0, genres.indexOf('RPG'));
      await page.goto(`${session.url}/top-rated`);
      expect(await page.getByRole('searchbox').count()).to.equal(1);
      expect(await page.getByRole('search', { name: 'Site' }).isVisible()).to.equal(true);
    });
  }

  it('renders the API reference from /openapi.json', async () => {
    await session.expectApiReference(page);
    expect(await page.locator('#listGames code', { hasText: 'X-Total-Count' }).count()).to.be.above(
      0,
    );
  });

  const pages = [
    '/',
    '/top-rated',
    '/hidden-gems',
    '/games/1',
    `/games/${unrated?.id}`,
    '/search',
    '/search?q=zelda',
    '/search?genre=RPG&sort=title',
    '/search?page=2',
    '/search?q=xyzzy',
    `/search?q=${'x'.repeat(200)}`,
    '/search?page=0',
    '/games/999999',
    '/nope',
    '/docs',
  ];
  session.itFitsEveryWidth(() => page, pages);
});

describe('the hidden gems page in Chromium, when they fill several pages', function () {
  // Chromium aborts a navigation (net::ERR_NETWORK_CHANGED) when a network interface comes or
  // goes, as Docker's do beside these tests in CI: a test that failed so gets one more run.
  this.retries(1);
  this.timeout(120_000);
  let page: Page;
  // The seed's games made gems, several times over under new ids: three pages and a part.
  const gems = Array.from({ length: 3 * SEARCH_PAGE_SIZE + 5 }, (_, i) => ({
    ...(catalogue.games[i % catalogue.size] as (typeof catalogue.games)[number]),
    id: i + 1,
    rating: 9,
    reviewCount: 100 + i,
  }));
  const session = useBrowser(() => createApp({ catalogue: new Catalogue(gems) }));
  beforeEach(async () => {
    page = await session.newPage();
  });

  it('goes to the next page and back by its links', async () => {
    await page.goto(`${session.url}/hidden-gems`);
    await page.getByRole('link', { name: /Next/ }).click();
    await page.waitForURL(/\/hidden-gems\?page=2$/);
    expect(await page.locator('h1').textContent()).to.equal('Hidden gems, page 2');
    expect(await page.locator('img.game-card__cover').count()).to.equal(SEARCH_PAGE_SIZE);
    await page.getByRole('link', { name: /Previous/ }).click();
    await page.waitForURL(/\/hidden-gems$/);
  });

  session.itFitsEveryWidth(
    () => page,
    ['/hidden-gems', '/hidden-gems?page=2', '/hidden-gems?page=4'],
  );
});
