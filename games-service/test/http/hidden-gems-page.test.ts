import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { Catalogue } from '../../src/catalogue/catalogue.js';
import { SEARCH_PAGE_SIZE } from '../../src/routes/pages.js';
import { makeGame } from '../fixtures.js';
import { request } from '../helpers.js';

const cardIds = (html: string) =>
  [...html.matchAll(/class="game-card__link" href="\/games\/(\d+)"/g)].map((m) => Number(m[1]));

describe('the hidden gems page, a page at a time', () => {
  // 60 gems (two full pages and 12), best first by their rating, and a game that is no gem.
  const GEMS = 2 * SEARCH_PAGE_SIZE + 12;
  const gems = Array.from({ length: GEMS }, (_, i) =>
    makeGame({ id: i + 1, rating: 9.9 - i / 100, reviewCount: 100 }),
  );
  const catalogue = new Catalogue([...gems, makeGame({ id: 1000, rating: 5 })]);
  const app = createApp({ catalogue }).callback();
  const ids = (from: number, to: number) => gems.slice(from, to).map((g) => g.id);

  it('shows the first page of the gems, best first, with a link to the next', async () => {
    const res = await request(app).get('/hidden-gems').expect(200);
    expect(cardIds(res.text)).to.deep.equal(ids(0, SEARCH_PAGE_SIZE));
    expect(res.text).to.include('<title>Hidden gems &#xB7; Game Shelf</title>');
    expect(res.text).to.include(`Gems 1 to ${SEARCH_PAGE_SIZE} of ${GEMS}`);
    expect(res.text).to.include('href="/hidden-gems?page=2" rel="next"');
    expect(res.text).to.not.include('rel="prev"');
    expect(res.text).to.include('Page 1 of 3');
  });

  it('shows page 2 with its number in the title and heading, and links both ways', async () => {
    const res = await request(app).get('/hidden-gems?page=2').expect(200);
    expect(cardIds(res.text)).to.deep.equal(ids(SEARCH_PAGE_SIZE, 2 * SEARCH_PAGE_SIZE));
    expect(res.text).to.include('<title>Hidden gems, page 2 &#xB7; Game Shelf</title>');
    expect(res.text).to.include('<h1>Hidden gems, page 2</h1>');
    expect(res.text).to.include(`Gems 25 to 48 of ${GEMS}`);
    expect(res.text).to.include('href="/hidden-gems" rel="prev"');
    expect(res.text).to.include('href="/hidden-gems?page=3" rel="next"');
    expect(res.headers['cache-control']).to.equal('public, max-age=300');
  });

  it('ends on a last page that is not full, with no link further', async () => {
    const res = await request(app).get('/hidden-gems?page=3').expect(200);
    expect(cardIds(res.text)).to.deep.equal(ids(2 * SEARCH_PAGE_SIZE, GEMS));
    expect(res.text).to.include('href="/hidden-gems?page=2" rel="prev"');
    expect(res.text).to.not.include('rel="next"');
  });

  it('answers a page past the last with the 404 page, a bad page number with 400', async () => {
    const past = await request(app).get('/hidden-gems?page=4').expect(404);
    expect(past.text).to.include('There is no page 4 of hidden gems: they fill 3 pages.');
    for (const page of ['0', 'two', '1.5'])
      await request(app).get(`/hidden-gems?page=${page}`).expect(400);
  });

  it('shows no paging when the gems fit one page, and page 1 when there is none', async () => {
    const few = new Catalogue(gems.slice(0, 3));
    const res = await request(createApp({ catalogue: few }).callback())
      .get('/hidden-gems')
      .expect(200);
    expect(cardIds(res.text)).to.deep.equal(ids(0, 3));
    expect(res.text).to.not.include('class="pagination"');
    const none = createApp({ catalogue: new Catalogue([makeGame({ rating: 5 })]) }).callback();
    const empty = await request(none).get('/hidden-gems').expect(200);
    expect(empty.text).to.include('No game is a hidden gem right now.');
    await request(none).get('/hidden-gems?page=2').expect(404);
  });
});
