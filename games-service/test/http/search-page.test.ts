import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { Catalogue } from '../../src/catalogue/catalogue.js';
import { SORT_KEYS } from '../../src/catalogue/search.js';
import { SEARCH_PAGE_SIZE } from '../../src/routes/pages.js';
import { foldingGames, SEARCHES_ACROSS_FOLDING } from '../fixtures.js';
import { seededCatalogue as catalogue, request, seededApp } from '../helpers.js';

const cardIds = (html: string) =>
  [...html.matchAll(/class="game-card__link" href="\/games\/(\d+)"/g)].map((m) => Number(m[1]));

describe('the search page', () => {
  const app = seededApp().callback();

  it('shows every game best first, a page at a time, without a query', async () => {
    const res = await request(app).get('/search').expect(200).expect('Content-Type', /html/);
    const ranked = catalogue.topRated(catalogue.size);
    expect(cardIds(res.text)).to.deep.equal(ranked.slice(0, SEARCH_PAGE_SIZE).map((g) => g.id));
    expect(res.text).to.include('<h1>All games</h1>');
    expect(res.text).to.include(`Games 1 to ${SEARCH_PAGE_SIZE} of ${catalogue.size}`);
    expect(res.text).to.include('href="/search?page=2" rel="next"');
    expect(res.text).to.not.include('rel="prev"');
    expect(res.headers['cache-control']).to.equal('public, max-age=300');
  });

  it('finds games by words of the title, in a genre, in the order asked', async () => {
    const res = await request(app).get('/search?q=super&genre=platformer&sort=title').expect(200);
    const expected = catalogue.games
      .filter((g) => g.genre === 'Platformer' && /\bsuper/i.test(g.title))
      .map((g) => g.title)
      .sort();
    expect(expected.length).to.be.above(1);
    const titles = [
      ...res.text.matchAll(/class="game-card__link" href="\/games\/\d+">([^<]+)</g),
    ].map((m) => m[1]);
    expect(titles).to.deep.equal(expected);
    expect(res.text).to.include('<h1>Platformer games matching &#x201C;super&#x201D;</h1>');
    expect(res.text).to.include(
      '<title>Platformer games matching &#x201C;super&#x201D; &#xB7; Game Shelf</title>',
    );
    expect(res.text, 'the form keeps the query').to.include('value="super"');
    expect(res.text).to.match(/<option value="Platformer" selected>/);
    expect(res.text).to.match(/<option value="title" selected>/);
  });

  it('takes what its form sends when nothing is chosen: empty genre and sort are no filter and the default order', async () => {
    const form = await request(app).get('/search?q=zelda&genre=&sort=').expect(200);
    const plain = await request(app).get('/search?q=zelda').expect(200);
    expect(cardIds(form.text)).to.deep.equal(cardIds(plain.text));
    expect(cardIds(form.text).length).to.be.above(0);
    expect(form.text).to.match(/<option value="" selected>Best rated first/);
  });

  it('shows the order a URL asks for as chosen, for every sort key', async () => {
    for (const sort of SORT_KEYS) {
      const res = await request(app).get(`/search?sort=${sort}`).expect(200);
      expect(res.text, sort).to.include(`<option value="${sort}" selected>`);
    }
  });

  it('folds case fully, ß as ss and final ς as σ, both ways, with accents composed or not', async () => {
    const folding = createApp({ catalogue: new Catalogue(foldingGames()) }).callback();
    const found = [];
    for (const [q] of SEARCHES_ACROSS_FOLDING) {
      const res = await request(folding)
        .get(`/search?q=${encodeURIComponent(q)}`)
        .expect(200);
      found.push([q, cardIds(res.text).sort((a, b) => a - b)]);
    }
    expect(found).to.deep.equal(SEARCHES_ACROSS_FOLDING);
  });

  it('matches nothing for text without a letter or digit, and everything for blanks', async () => {
    for (const q of ['😀', '-', '.']) {
      const res = await request(app)
        .get(`/search?q=${encodeURIComponent(q)}`)
        .expect(200);
      expect(cardIds(res.text), q).to.deep.equal([]);
      expect(res.text).to.include('No game matches');
    }
    const blank = await request(app).get('/search?q=%20%20').expect(200);
    expect(blank.text).to.include('<h1>All games</h1>');
    expect(cardIds(blank.text).length).to.equal(SEARCH_PAGE_SIZE);
  });

  it('refuses control characters in the query with the 400 page', async () => {
    const res = await request(app)
      .get('/search?q=zelda%00')
      .expect(400)
      .expect('Content-Type', /html/);
    expect(res.text).to.include('must not contain control characters');
    expect(res.text).to.not.include('\u0000');
  });

  it('names the page in the title past the first, and says "Game 145 of 145" on a last page of one', async () => {
    const res = await request(app).get('/search?page=7').expect(200);
    expect(res.text).to.include('<title>All games, page 7 &#xB7; Game Shelf</title>');
    expect(res.text).to.include('<h1>All games</h1>');
    expect(res.text).to.include('Game 145 of 145');
  });

  it('pages through the results, keeping the query in the links', async () => {
    const last = Math.ceil(catalogue.size / SEARCH_PAGE_SIZE);
    const res = await request(app).get(`/search?sort=-releaseYear&page=2`).expect(200);
    expect(res.text).to.include(`Page 2 of ${last}`);
    expect(res.text).to.include('href="/search?sort=-releaseYear" rel="prev"');
    expect(res.text).to.include('href="/search?sort=-releaseYear&amp;page=3" rel="next"');
    const end = await request(app).get(`/search?sort=-releaseYear&page=${last}`).expect(200);
    expect(end.text).to.not.include('rel="next"');
    expect(cardIds(end.text)).to.have.length(catalogue.size - (last - 1) * SEARCH_PAGE_SIZE);
  });

  it('says clearly when nothing matches, and offers the genres', async () => {
    const res = await request(app).get('/search?q=xyzzy').expect(200);
    expect(res.text).to.include('No game matches');
    expect(res.text).to.include('Nothing on the shelf matches &#x201C;xyzzy&#x201D;.');
    expect(cardIds(res.text)).to.deep.equal([]);
    for (const genre of catalogue.genres) {
      expect(res.text).to.include(`href="/search?genre=${encodeURIComponent(genre)}"`);
    }
  });

  it('lists the genres as a reader expects them, Racing before RPG, in the form and the links', async () => {
    const res = await request(app).get('/search').expect(200);
    const links = [
      ...res.text.matchAll(/class="genre-list__link" href="\/search\?genre=[^"]+">([^<]+) </g),
    ];
    const options = [...res.text.matchAll(/<option value="([^"]+)"[^>]*>\1<\/option>/g)];
    const readerOrder = [...catalogue.genres].sort((a, b) =>
      a.localeCompare(b, 'en', { sensitivity: 'base' }),
    );
    expect(links.map((m) => m[1])).to.deep.equal(readerOrder);
    expect(options.map((m) => m[1])).to.deep.equal(readerOrder);
    expect(readerOrder.indexOf('Racing')).to.be.below(readerOrder.indexOf('RPG'));
  });

  it('shows one search box, its own, filled with the query; the other pages have the header’s', async () => {
    const res = await request(app).get('/search?q=zelda').expect(200);
    expect(res.text.match(/type="search"/g)).to.have.length(1);
    expect(res.text).to.include('id="search-q" type="search" name="q" value="zelda"');
    expect(res.text).to.not.include('site-search');
    for (const path of ['/', '/top-rated', '/search?page=99']) {
      const other = await request(app).get(path);
      expect(other.text.match(/type="search"/g), path).to.have.length(1);
      expect(other.text, path).to.include('id="site-search-q"');
    }
  });

  it('lists each genre with its number of games, the current one marked', async () => {
    const res = await request(app).get('/search?genre=rpg').expect(200);
    const rpg = catalogue.byGenre('RPG').length;
    expect(res.text).to.include('<h1>RPG games</h1>');
    expect(res.text).to.match(
      new RegExp(
        `href="/search\\?genre=RPG" aria-current="page">RPG <span class="genre-list__count">\\(${rpg}\\)`,
      ),
    );
    expect(cardIds(res.text)).to.have.length(rpg);
  });

  it('escapes the query it shows', async () => {
    const res = await request(app).get('/search?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E').expect(200);
    expect(res.text).to.not.include('<script>alert');
    expect(res.text).to.include('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('answers a bad page number or sort with the error page, a page past the end with 404', async () => {
    for (const query of ['page=0', 'page=x', 'sort=price', 'q=a&q=b']) {
      const res = await request(app).get(`/search?${query}`);
      expect(res.status, query).to.equal(400);
      expect(res.text, query).to.include('<h1>That request does not work</h1>');
    }
    const past = await request(app).get('/search?q=zelda&page=2').expect(404);
    expect(past.text).to.include('There is no page 2 of these results: they fill 1 page.');
  });

  it('ignores parameters it does not know', async () => {
    await request(app).get('/search?utm_source=mail&q=zelda').expect(200);
  });
});

describe('covers', () => {
  const app = seededApp().callback();
  const game = catalogue.topRated(1)[0]!;

  it('shows a cover on every card, at a versioned URL, with alt text', async () => {
    const res = await request(app).get('/top-rated').expect(200);
    const covers = [
      ...res.text.matchAll(/<img class="game-card__cover" src="([^"]+)" alt="([^"]+)"/g),
    ];
    expect(covers).to.have.length(15);
    expect(covers[0]![1]).to.match(new RegExp(`^/games/${game.id}/cover\\.svg\\?v=[\\w-]{12}$`));
    expect(covers[0]![2]).to.equal(`Cover of ${game.title} (${game.genre}, ${game.releaseYear})`);
  });

  it('serves the SVG for good at its versioned URL, for a day at any other', async () => {
    const page = await request(app).get(`/games/${game.id}`).expect(200);
    const src = /<img class="game__cover" src="([^"]+)"/
      .exec(page.text)?.[1]
      ?.replace(/&amp;/g, '&');
    expect(src).to.be.a('string');
    const svg = await request(app).get(src!).expect(200).expect('Content-Type', 'image/svg+xml');
    expect(svg.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    expect(svg.body.toString()).to.match(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const unversioned = await request(app).get(`/games/${game.id}/cover.svg`).expect(200);
    expect(unversioned.headers['cache-control']).to.equal('public, max-age=86400');
    const stale = await request(app).get(`/games/${game.id}/cover.svg?v=old`).expect(200);
    expect(stale.headers['cache-control']).to.equal('public, max-age=86400');
    expect(stale.body.toString()).to.equal(svg.body.toString());
  });

  it('answers 404 for the cover of a game that does not exist', async () => {
    const res = await request(app).get('/games/999999/cover.svg');
    expect(res.status).to.equal(404);
    expect(res.headers['cache-control']).to.equal('no-store');
  });

  it('lets pages load images only from the service itself', async () => {
    const res = await request(app).get('/').expect(200);
    expect(res.headers['content-security-policy']).to.match(/img-src 'self'/);
    expect(res.text).to.not.match(/<img[^>]+src="(https?:)?\/\//);
  });
});
