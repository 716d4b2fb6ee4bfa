import { expect } from 'chai';
import { CACHE_CONTROL } from 'service-kit';
import { expectAsciiPages, expectCacheControl } from 'service-kit/testing';
import { createApp } from '../../src/app.js';
import { Catalogue } from '../../src/catalogue/catalogue.js';
import { makeGame } from '../fixtures.js';
import { seededCatalogue as catalogue, request, seededApp } from '../helpers.js';

const gameLinks = (html: string) =>
  [...html.matchAll(/href="\/games\/(\d+)"/g)].map((m) => Number(m[1]));

function expectCleanPage(html: string) {
  expect(html).to.match(/^<!DOCTYPE html>/);
  expect(html).to.not.match(/undefined|NaN|\bat .*\.ts:\d+/);
  for (const href of ['/', '/top-rated', '/random', '/hidden-gems'])
    expect(html).to.include(`href="${href}"`);
  expect(html).to.include('<header').and.include('<main').and.include('<footer');
  expect(html, 'the search box').to.match(
    /<form[^>]*role="search"[^>]*method="get" action="\/search"/,
  );
  expect(html, 'the footer names the API reference').to.include(
    '<a href="/docs">API reference</a>',
  );
}

describe('pages', () => {
  const app = seededApp().callback();

  it('/ shows 9 distinct random games with year and rating', async () => {
    const res = await request(app).get('/').expect(200).expect('Content-Type', /html/);
    expectCleanPage(res.text);
    const ids = gameLinks(res.text);
    expect(new Set(ids).size).to.equal(9);
    expect(res.text.match(/\d\.\d \/ 10|Not yet rated/g)?.length).to.equal(9);
    expect(res.headers['cache-control']).to.equal('no-store');
  });

  it('/ changes from one load to the next', async () => {
    const pages = await Promise.all([1, 2, 3].map(() => request(app).get('/')));
    const sets = pages.map((p) => gameLinks(p.text).sort().join());
    expect(new Set(sets).size).to.be.greaterThan(1);
  });

  it('/top-rated lists the 15 best in order, with short descriptions', async () => {
    const res = await request(app).get('/top-rated').expect(200);
    expectCleanPage(res.text);
    const top = catalogue.topRated(15);
    expect(gameLinks(res.text)).to.deep.equal(top.map((g) => g.id));
    // Each rank opens its card's title: <h2 class="game-card__title"><span class="game-card__rank">1</span> <a ...
    const ranks = [
      ...res.text.matchAll(
        /<h2 class="game-card__title"><span class="game-card__rank">(\d+)<\/span> <a /g,
      ),
    ];
    expect(ranks.map((m) => Number(m[1]))).to.deep.equal(top.map((_, i) => i + 1));
    for (const game of top) {
      expect(res.text).to.include(`${game.rating!.toFixed(1)} / 10`);
      expect(res.text).to.include(escapeHtml(game.shortDescription));
    }
  });

  it('/games/:id shows the details and three recommendations', async () => {
    const game = catalogue.topRated(3)[2]!;
    const res = await request(app).get(`/games/${game.id}`).expect(200);
    expectCleanPage(res.text);
    for (const text of [
      game.title,
      game.description,
      game.developer,
      game.genre,
      String(game.releaseYear),
    ]) {
      expect(res.text).to.include(escapeHtml(text));
    }
    expect(res.text).to.include(`${game.rating!.toFixed(1)} / 10`);
    const recommended = gameLinks(res.text.slice(res.text.indexOf('recommendations-title')));
    expect(recommended).to.deep.equal(catalogue.recommendations(game).map((g) => g.id));
    const cards = res.text
      .slice(res.text.indexOf('recommendations-title'))
      .match(/<article class="game-card">/g);
    expect(cards, 'recommendations as cards').to.have.length(3);
    expect(res.text).to.include(
      `alt="Cover of ${escapeHtml(game.title)} (${game.genre}, ${game.releaseYear})"`,
    );
  });

  it('/games/:id says an unreleased game is not yet rated', async () => {
    const unreleased = catalogue.games.find((g) => g.rating === null)!;
    const res = await request(app).get(`/games/${unreleased.id}`).expect(200);
    expectCleanPage(res.text);
    expect(res.text).to.include('Not yet rated');
  });

  it('/games/:id says a game of a later year is expected, not released', async () => {
    const year = new Date().getFullYear();
    const games = [
      makeGame({ id: 1, releaseYear: year + 1, rating: null }),
      makeGame({ id: 2, releaseYear: year }),
    ];
    const app = createApp({ catalogue: new Catalogue(games) }).callback();
    const announced = await request(app).get('/games/1').expect(200);
    expect(announced.text).to.include(`<dt>Expected</dt><dd>${year + 1}</dd>`);
    const out = await request(app).get('/games/2').expect(200);
    expect(out.text).to.include(`<dt>Released</dt><dd>${year}</dd>`);
  });

  it('/hidden-gems lists every gem and states the criterion', async () => {
    const res = await request(app).get('/hidden-gems').expect(200);
    expectCleanPage(res.text);
    expect(gameLinks(res.text)).to.have.members(catalogue.hiddenGems().map((g) => g.id));
    expect(res.text).to.include(`rated ${(8.5).toFixed(1)} or higher`);
    expect(res.text).to.include(`fewer than ${(5000).toLocaleString('en-US')}`);
  });

  it('/random redirects to a game page', async () => {
    const res = await request(app).get('/random').expect(302);
    const id = Number(/^\/games\/(\d+)$/.exec(res.headers.location ?? '')?.[1]);
    expect(catalogue.byId(id)).to.not.equal(undefined);
  });

  it('answers unknown games and paths with the 404 page in the layout', async () => {
    for (const path of ['/games/999999', '/games/abc', '/nope', '/games/1/extra']) {
      const res = await request(app).get(path).expect(404).expect('Content-Type', /html/);
      expectCleanPage(res.text);
      expect(res.text).to.include('Page not found');
    }
  });

  it('escapes markup in the data', async () => {
    const evil = makeGame({
      id: 1,
      title: '<script>alert(1)</script>',
      genre: 'X<b>',
      description: '"quoted" & <i>',
    });
    const others = [2, 3, 4].map((id) => makeGame({ id, genre: 'X<b>' }));
    const app = createApp({ catalogue: new Catalogue([evil, ...others]) }).callback();
    const res = await request(app).get('/games/1').expect(200);
    expect(res.text).to.not.include('<script>alert').and.not.include('<b>').and.not.include('<i>');
    expect(res.text).to.include('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('is ASCII on every page (given ASCII data), which V8 and Node hash and write on their fast paths', async () => {
    await expectAsciiPages(request(app), [
      ['/', 200],
      ['/top-rated', 200],
      ['/games/1', 200],
      ['/hidden-gems', 200],
      ['/search?q=zelda', 200],
      ['/search?page=2', 200],
      ['/search?q=xyzzy', 200],
      ['/no-such-page', 404],
      ['/docs', 200],
    ]);
  });

  it('links its stylesheet under a versioned URL, cached for good', async () => {
    const href = /href="(\/assets\/styles\.css\?v=[\w-]+)"/.exec(
      (await request(app).get('/')).text,
    );
    await expectCacheControl(request(app), [[String(href?.[1]), CACHE_CONTROL.immutable]]);
  });
});

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
