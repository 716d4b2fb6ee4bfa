import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { Catalogue } from '../../src/catalogue/catalogue.js';
import { toSummary } from '../../src/catalogue/game.js';
import { foldingGames, makeGame, SEARCHES_ACROSS_FOLDING } from '../fixtures.js';
import {
  seededCatalogue as catalogue,
  expectErrorBody,
  expectManyUnknownParameters,
  request,
  seededApp,
} from '../helpers.js';

type Summary = { id: number; title: string; genre: string; releaseYear: number; rating: number };
const ids = (body: Summary[]) => body.map((game) => game.id);

describe('GET /api/games with search parameters', () => {
  const app = seededApp().callback();

  it('answers every game by id without parameters, as it always did', async () => {
    const res = await request(app).get('/api/games').expect(200);
    expect(res.body).to.deep.equal(catalogue.games.map(toSummary));
    expect(res.headers['x-total-count']).to.equal(String(catalogue.size));
    expect(res.headers.link).to.equal(undefined);
  });

  it('finds games by word prefixes of title or developer, ignoring case and accents', async () => {
    const res = await request(app).get('/api/games?q=ZELD%20brea').expect(200);
    expect(res.body.map((g: Summary) => g.title)).to.deep.equal([
      'The Legend of Zelda: Breath of the Wild',
    ]);
    const byDeveloper = await request(app).get('/api/games?q=rockstar').expect(200);
    const expected = catalogue.games.filter((g) => /rockstar/i.test(g.developer));
    expect(ids(byDeveloper.body)).to.deep.equal(expected.map((g) => g.id));
    expect(byDeveloper.headers['x-total-count']).to.equal(String(expected.length));
  });

  it('ignores accents on both sides', async () => {
    const accented = new Catalogue([
      makeGame({ id: 1, title: 'Pokémon Red' }),
      makeGame({ id: 2, title: 'Pokemon Blue' }),
      makeGame({ id: 3, title: 'Poker Night' }),
    ]);
    const small = createApp({ catalogue: accented }).callback();
    for (const q of ['pokemon', 'POKÉMON', 'pokém']) {
      const res = await request(small)
        .get(`/api/games?q=${encodeURIComponent(q)}`)
        .expect(200);
      expect(ids(res.body), q).to.deep.equal([1, 2]);
    }
  });

  it('folds case fully, ß as ss and final ς as σ, both ways, with accents composed or not', async () => {
    const folding = createApp({ catalogue: new Catalogue(foldingGames()) }).callback();
    const found = [];
    for (const [q] of SEARCHES_ACROSS_FOLDING) {
      const res = await request(folding)
        .get(`/api/games?q=${encodeURIComponent(q)}`)
        .expect(200);
      found.push([q, ids(res.body)]);
    }
    expect(found).to.deep.equal(SEARCHES_ACROSS_FOLDING);
  });

  it('filters by genre, minimum rating and release years', async () => {
    const res = await request(app).get('/api/games?genre=rpg&minRating=9&from=2010&to=2020');
    expect(res.status).to.equal(200);
    const expected = catalogue.games.filter(
      (g) =>
        g.genre === 'RPG' &&
        g.rating !== null &&
        g.rating >= 9 &&
        g.releaseYear >= 2010 &&
        g.releaseYear <= 2020,
    );
    expect(expected.length).to.be.above(1);
    expect(ids(res.body)).to.deep.equal(expected.map((g) => g.id));
    const year = await request(app).get('/api/games?year=2017').expect(200);
    for (const game of year.body) expect(game.releaseYear).to.equal(2017);
    expect(year.body.length).to.equal(catalogue.games.filter((g) => g.releaseYear === 2017).length);
  });

  it('sorts both ways, unrated games last either way', async () => {
    const best = await request(app).get('/api/games?sort=-rating').expect(200);
    const ratings = best.body.map((g: Summary) => g.rating);
    const rated = ratings.filter((r: number | null) => r !== null);
    expect(rated).to.deep.equal([...rated].sort((a: number, b: number) => b - a));
    expect(ratings.slice(rated.length).every((r: number | null) => r === null)).to.equal(true);
    const worst = await request(app).get('/api/games?sort=rating').expect(200);
    expect(worst.body[0].rating).to.equal(Math.min(...rated));
    expect(worst.body.at(-1).rating).to.equal(null);
    const titles = await request(app).get('/api/games?sort=-title&limit=3').expect(200);
    const sortedTitles = catalogue.games.map((g) => g.title).sort();
    expect(titles.body.map((g: Summary) => g.title)).to.deep.equal(
      sortedTitles.reverse().slice(0, 3),
    );
  });

  it('pages with limit and offset, with X-Total-Count and Link', async () => {
    const first = await request(app).get('/api/games?genre=RPG&sort=title&limit=4').expect(200);
    const rpg = catalogue.byGenre('RPG');
    expect(first.body).to.have.length(4);
    expect(first.headers['x-total-count']).to.equal(String(rpg.length));
    expect(first.headers.link).to.equal(
      '</api/games?genre=RPG&sort=title&offset=4&limit=4>; rel="next"',
    );
    const second = await request(app)
      .get('/api/games?genre=RPG&sort=title&limit=4&offset=4')
      .expect(200);
    expect(second.headers.link).to.equal(
      '</api/games?genre=RPG&sort=title&offset=8&limit=4>; rel="next", ' +
        '</api/games?genre=RPG&sort=title&offset=0&limit=4>; rel="prev"',
    );
    const titles = [...first.body, ...second.body].map((g: Summary) => g.title);
    expect(titles).to.deep.equal(
      rpg
        .map((g) => g.title)
        .sort()
        .slice(0, 8),
    );
  });

  it('never links to a negative offset, nor past the last game', async () => {
    const near = await request(app).get('/api/games?limit=10&offset=2').expect(200);
    expect(near.headers.link).to.include('</api/games?offset=0&limit=10>; rel="prev"');
    const last = await request(app).get(`/api/games?limit=10&offset=${catalogue.size - 5}`);
    expect(last.body).to.have.length(5);
    expect(last.headers.link).to.not.include('rel="next"');
    const beyond = await request(app).get('/api/games?limit=10&offset=5000').expect(200);
    expect(beyond.body).to.deep.equal([]);
    expect(beyond.headers['x-total-count']).to.equal(String(catalogue.size));
    expect(beyond.headers.link).to.equal(
      `</api/games?offset=${catalogue.size - 10}&limit=10>; rel="prev"`,
    );
    const noLimit = await request(app).get('/api/games?offset=140').expect(200);
    expect(noLimit.body).to.have.length(catalogue.size - 140);
    expect(noLimit.headers.link).to.equal('</api/games?offset=0&limit=140>; rel="prev"');
  });

  it('answers an empty list when nothing matches', async () => {
    for (const query of ['q=xyzzy', 'genre=opera', 'minRating=10', 'from=1950&to=1951']) {
      const res = await request(app).get(`/api/games?${query}`).expect(200);
      expect(res.body, query).to.deep.equal([]);
      expect(res.headers['x-total-count'], query).to.equal('0');
    }
  });

  it('takes an empty q or genre as no filter, as a search box sends them', async () => {
    const res = await request(app).get('/api/games?q=&genre=').expect(200);
    expect(res.body).to.have.length(catalogue.size);
  });

  it('answers 400 naming each unknown, repeated or invalid parameter', async () => {
    const cases: [string, { field: string; message: string }[]][] = [
      [
        'genres=RPG',
        [
          {
            field: 'genres',
            message:
              'is not a parameter here; the parameters are q, genre, minRating, year, from, to, sort, limit, offset',
          },
        ],
      ],
      ['limit=1&limit=2', [{ field: 'limit', message: 'must be given once' }]],
      ['limit=0', [{ field: 'limit', message: 'must be an integer from 1 to 1000' }]],
      ['limit=1001', [{ field: 'limit', message: 'must be an integer from 1 to 1000' }]],
      ['offset=-1', [{ field: 'offset', message: 'must be an integer from 0 to 1000000000' }]],
      [
        'minRating=eleven',
        [{ field: 'minRating', message: 'must be a number from 0 to 10, such as 8.5' }],
      ],
      [
        'minRating=10.5',
        [{ field: 'minRating', message: 'must be a number from 0 to 10, such as 8.5' }],
      ],
      ['year=99', [{ field: 'year', message: 'must be an integer from 1950 to 2100' }]],
      ['year=2001&from=2000', [{ field: 'year', message: 'cannot be combined with from or to' }]],
      ['from=2010&to=2000', [{ field: 'from', message: 'must not be after to' }]],
      [
        'sort=price',
        [
          {
            field: 'sort',
            message:
              'must be one of rating, -rating, title, -title, releaseYear, -releaseYear, reviewCount, -reviewCount',
          },
        ],
      ],
      [`q=${'a'.repeat(201)}`, [{ field: 'q', message: 'must be at most 200 characters' }]],
      [
        'limit=x&sort=id',
        [
          { field: 'limit', message: 'must be an integer from 1 to 1000' },
          {
            field: 'sort',
            message:
              'must be one of rating, -rating, title, -title, releaseYear, -releaseYear, reviewCount, -reviewCount',
          },
        ],
      ],
    ];
    for (const [query, details] of cases) {
      const res = await request(app).get(`/api/games?${query}`);
      expectErrorBody(res, 400);
      expect(res.body.details, query).to.deep.equal(details);
      expect(res.body.error, query).to.match(/^Invalid query: /);
      expect(res.headers['x-total-count'], query).to.equal(undefined);
    }
  });

  it('answers 2,000 unknown parameters naming the first five and counting the rest, in a small body', async () => {
    const res = await expectManyUnknownParameters((query) =>
      request(app).get(`/api/games?${query}`),
    );
    expect((res.body as { error: string }).error).to.match(
      /^Invalid query: k0 is not a parameter here; /,
    );
  });

  it('keeps each search answer for its own URL', async () => {
    const fresh = seededApp();
    const server = fresh.callback();
    await request(server).get('/api/games?q=zelda').expect(200);
    const other = await request(server).get('/api/games?q=mario').expect(200);
    expect(other.body.every((g: Summary) => /mario/i.test(g.title))).to.equal(true);
    const again = await request(server).get('/api/games?q=zelda').expect(200);
    expect(again.body).to.have.length(1);
  });
});
