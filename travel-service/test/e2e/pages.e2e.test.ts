import { expect } from 'chai';
import { useBrowser } from 'service-kit/testing';
import { createApp } from '../../src/app.js';
import { budgetShares } from '../../src/itineraries/generate.js';
import { planItineraries } from '../../src/itineraries/itineraries.js';
import { seededRandom } from '../../src/itineraries/random.js';
import { NO_DESTINATION, PICKER_MAX_DESTINATIONS } from '../../src/routes/pages.js';
import { makeDestination } from '../fixtures.js';
import { seededItineraries as itineraries, seededApp, seededEntry } from '../helpers.js';

type Page = Awaited<ReturnType<ReturnType<typeof useBrowser>['newPage']>>;

describe('pages in Chromium', function () {
  // Chromium aborts a navigation (net::ERR_NETWORK_CHANGED) when a network interface comes or
  // goes, as Docker's do beside these tests in CI: a test that failed so gets one more run.
  this.retries(1);
  this.timeout(180_000);
  let page: Page;

  const session = useBrowser(() => seededApp());
  beforeEach(async () => {
    page = await session.newPage();
  });

  it('moves through the destinations with the keyboard without leaving the page (WCAG 3.2.2)', async () => {
    const { slug, destination } = seededEntry('cusco');
    await page.goto(session.url);
    // Records and cancels any navigation the page starts: `navigate` fires as it starts.
    await page.evaluate(() => {
      const started: string[] = [];
      Object.assign(window, { started });
      navigation.onnavigate = (event) => {
        started.push(event.destination.url);
        event.preventDefault();
      };
    });
    const picker = page.getByLabel('Destination');
    await picker.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('c');
    await page.keyboard.press('ArrowDown');
    expect(await picker.inputValue(), 'Buenos Aires, Cape Town, then Cusco').to.equal(slug);
    expect(await page.evaluate(() => Reflect.get(window, 'started'))).to.deep.equal([]);
    await page.evaluate(() => {
      navigation.onnavigate = null;
    });
    // The button sends the choice, from the keyboard too.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${session.url}/itineraries/${slug}`);
    expect(await page.locator('h1').textContent()).to.equal(destination.name);
  });

  for (const javaScriptEnabled of [true, false]) {
    it(`opens the chosen destination through the form's button (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
      page = await session.newPage({ javaScriptEnabled });
      const { slug, destination, itinerary } = seededEntry('kyoto');
      await page.goto(session.url);
      const picker = page.getByLabel('Destination');
      const button = page.getByRole('button', { name: 'Show itinerary' });
      await picker.selectOption({ label: destination.name });
      await button.click();
      await page.waitForURL(`${session.url}/itineraries/${slug}`);
      expect(await page.locator('h1').textContent()).to.equal(destination.name);
      expect(await page.locator('.activity').count()).to.equal(itinerary.activities.length);
      // Back on the home page the browser shows the last choice: the button sends it again.
      await page.goBack();
      expect(await picker.inputValue()).to.equal(slug);
      await button.click();
      await page.waitForURL(`${session.url}/itineraries/${slug}`);
    });
  }

  it('says what is missing when the picker is sent without a choice', async () => {
    await page.goto(session.url);
    const button = page.getByRole('button', { name: 'Show itinerary' });
    await button.click();
    await page.waitForURL(`${session.url}/itineraries?destination=`);
    expect(await page.locator('h1').textContent()).to.equal('Where to next?');
    const alert = page.getByRole('alert');
    expect(await alert.textContent()).to.include(NO_DESTINATION);
    const picker = page.getByLabel('Destination');
    expect(await picker.getAttribute('aria-invalid')).to.equal('true');
    expect(await picker.evaluate((el) => el === document.activeElement)).to.equal(true);
    // Choosing one then works as usual.
    const { slug, destination } = seededEntry('kyoto');
    await picker.selectOption({ label: destination.name });
    await button.click();
    await page.waitForURL(`${session.url}/itineraries/${slug}`);
  });

  it('shows the keyboard focus on the picker on top of its invalid state', async () => {
    await page.goto(`${session.url}/itineraries?destination=`);
    const picker = page.getByLabel('Destination');
    const look = () =>
      picker.evaluate((el) => {
        const style = getComputedStyle(el);
        return {
          focused: el.matches(':focus-visible'),
          outline: `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`,
          border: style.borderColor,
        };
      });
    await picker.focus();
    await page.keyboard.press('Tab');
    const unfocused = await look();
    await page.keyboard.press('Shift+Tab');
    const focused = await look();
    expect([unfocused.focused, focused.focused]).to.deep.equal([false, true]);
    expect(unfocused.border, 'the invalid state shows').to.equal('rgb(185, 28, 28)');
    expect(focused.border, 'and still shows with the focus').to.equal(unfocused.border);
    expect(focused.outline, 'the focus shows').to.not.equal(unfocused.outline);
    expect(focused.outline).to.not.match(/^none/);
  });

  it('links the featured itinerary to its page', async () => {
    await page.goto(session.url);
    const name = await page.locator('#featured-title').textContent();
    const entry = itineraries.find(name ?? '');
    expect(entry, String(name)).to.not.equal(undefined);
    await page.getByRole('link', { name: `Open the ${name} itinerary page` }).click();
    await page.waitForURL(`${session.url}/itineraries/${entry?.slug}`);
    expect(await page.locator('h1').textContent()).to.equal(name);
  });

  it('loads the stylesheet without breaking the content security policy', async () => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(session.url);
    const background = await page
      .locator('.site-header')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).to.not.equal('rgba(0, 0, 0, 0)');
    await page.goto(`${session.url}/itineraries/paris`);
    const widths = await page
      .locator('.budget__bar')
      .evaluateAll((bars) => bars.map((bar) => bar.getBoundingClientRect().width));
    expect(widths.length).to.be.above(2);
    for (const width of widths) expect(width).to.be.above(0);
    expect(errors).to.deep.equal([]);
  });

  it('puts each activity price at the same place on every card, on a phone', async () => {
    await page.setViewportSize({ width: 390, height: 900 });
    for (const { slug } of itineraries.all) {
      await page.goto(`${session.url}/itineraries/${slug}`);
      const places = await page.locator('.activity').evaluateAll((cards) =>
        cards.map((card) => {
          const box = card.getBoundingClientRect();
          const price = (
            card.querySelector('.activity__price') as HTMLElement
          ).getBoundingClientRect();
          const name = (
            card.querySelector('.activity__name') as HTMLElement
          ).getBoundingClientRect();
          return {
            right: Math.round(box.right - price.right),
            top: Math.round(price.top - name.top),
          };
        }),
      );
      expect(new Set(places.map((p) => p.right)).size, slug).to.equal(1);
      for (const place of places) expect(place.top, slug).to.be.within(-4, 4);
    }
  });

  it('draws each budget bar as long as its share, and says what the orange bars are (390 and 1280 px)', async () => {
    const smallest = Math.min(
      ...itineraries.all.flatMap(({ itinerary }) => budgetShares(itinerary)),
    );
    expect(smallest, 'a share small enough to test the minimum').to.be.below(0.03);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      for (const { slug, itinerary } of itineraries.all) {
        await page.goto(`${session.url}/itineraries/${slug}`);
        const rows = await page.locator('.budget__row').evaluateAll((items) =>
          items.map((row) => {
            const track = (row.querySelector('.budget__track') as Element).getBoundingClientRect();
            const bar = row.querySelector('.budget__bar');
            return {
              label: (row.querySelector('.budget__label') as HTMLElement).innerText,
              track: track.width,
              bar: bar ? bar.getBoundingClientRect().width : 0,
              fill: bar ? getComputedStyle(bar).fill : '',
            };
          }),
        );
        const shares = budgetShares(itinerary);
        const where = `${slug} at ${width}px`;
        expect(rows.length, where).to.equal(itinerary.activities.length);
        rows.forEach((row, index) => {
          const share = shares[index] as number;
          // True to the share; a share above 0 shows as at least 1% of the track (3 px or more).
          const expected = share > 0 ? Math.max(share, 0.01) * row.track : 0;
          expect(row.bar, `${where}: ${row.label}`).to.be.closeTo(expected, 0.5);
          if (share > 0) expect(row.bar, `${where}: ${row.label}`).to.be.at.least(3);
          const highlight = itinerary.activities[index]?.highlight;
          expect(row.label.startsWith('★ '), `${where}: ${row.label}`).to.equal(Boolean(highlight));
        });
        const colours = new Set(rows.map((row) => row.fill));
        const legend = page.locator('.budget__legend');
        if (itinerary.activities.some((activity) => activity.highlight)) {
          expect(await legend.isVisible(), where).to.equal(true);
          expect(await legend.innerText(), where).to.match(/★ Highlight\s+Other activity/);
          const swatches = await legend
            .locator('.budget__swatch')
            .evaluateAll((all) => all.map((swatch) => getComputedStyle(swatch).backgroundColor));
          for (const colour of colours) expect(swatches, where).to.include(colour);
        } else {
          expect(await legend.count(), where).to.equal(0);
          expect(colours.size, where).to.equal(1);
        }
      }
    }
  });

  it('renders the API reference from /openapi.json', async () => {
    await session.expectApiReference(page);
  });

  const pages = [
    '/',
    '/itineraries?destination=',
    '/itineraries/atlantis',
    '/itineraries/%3Cb%3E',
    '/nope',
    '/docs',
  ];
  session.itFitsEveryWidth(() => page, pages);

  it('every itinerary page fits 390 and 1280 px; the one with most activities has no accessibility violations', async () => {
    const size = (entry: (typeof itineraries.all)[number]) => entry.itinerary.activities.length;
    const longest = itineraries.all.reduce((a, b) => (size(b) > size(a) ? b : a));
    for (const entry of itineraries.all) {
      await session.checkPageAtWidths(page, `/itineraries/${entry.slug}`, {
        accessibility: entry === longest,
      });
    }
  });
});

describe('pages in Chromium, with more destinations than the picker lists', function () {
  // Chromium aborts a navigation (net::ERR_NETWORK_CHANGED) when a network interface comes or
  // goes, as Docker's do beside these tests in CI: a test that failed so gets one more run.
  this.retries(1);
  this.timeout(180_000);
  let page: Page;
  const destinations = Array.from({ length: 2 * PICKER_MAX_DESTINATIONS }, (_, i) =>
    makeDestination({ name: `Place ${i + 1}` }),
  );
  const session = useBrowser(() =>
    createApp({
      itineraries: planItineraries(destinations, 'many'),
      random: seededRandom('many home'),
    }),
  );
  beforeEach(async () => {
    page = await session.newPage();
  });

  it('finds a destination typed in the text field, as the dropdown did', async () => {
    await page.goto(session.url);
    await page.getByLabel('Destination').fill('Place 12');
    await page.getByRole('button', { name: 'Show itinerary' }).click();
    await page.waitForURL(/\/itineraries\/place-12$/);
    expect(await page.locator('h1').textContent()).to.equal('Place 12');
  });

  session.itFitsEveryWidth(
    () => page,
    ['/', '/itineraries?destination=', '/destinations', '/destinations?page=2'],
  );
});
