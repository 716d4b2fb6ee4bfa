import { expect } from 'chai';
import { seededCatalogue as catalogue, expectErrorBody, request, seededApp } from '../helpers.js';

const SUMMARY_KEYS = ['id', 'title', 'genre', 'releaseYear', 'rating'];

describe('JSON API /api/games', () => {
  const app = seededApp().callback();
  const someGame = catalogue.topRated(1)[0]!;

  it('GET /api/games lists every game in the summary shape', async () => {
    const res = await request(app).get('/api/games').expect(200).expect('Content-Type', /json/);
    expect(res.body).to.have.length(catalogue.size);
    for (const item of res.body) expect(item).to.have.all.keys(SUMMARY_KEYS);
    expect(res.headers['cache-control']).to.match(/max-age=\d+/);
  });

  it('GET /api/games/top-rated gives the 10 best, highest first', async () => {
    const res = await request(app).get('/api/games/top-rated').expect(200);
    expect(res.body).to.have.length(10);
    expect(res.body.map((g: { id: number }) => g.id)).to.deep.equal(
      catalogue.topRated(10).map((g) => g.id),
    );
    for (const item of res.body) expect(item).to.have.all.keys(SUMMARY_KEYS);
    const ratings = res.body.map((g: { rating: number }) => g.rating);
    expect(ratings).to.deep.equal([...ratings].sort((a, b) => b - a));
  });

  it('GET /api/games/hidden-gems gives the gems with their review counts', async () => {
    const res = await request(app).get('/api/games/hidden-gems').expect(200);
    expect(res.body).to.have.length(catalogue.hiddenGems().length);
    for (const gem of res.body) {
      expect(gem).to.have.all.keys([...SUMMARY_KEYS, 'reviewCount']);
      expect(gem.rating).to.be.at.least(8.5);
      expect(gem.reviewCount).to.be.below(5000);
    }
  });

  describe('GET /api/games/genre/:genre', () => {
    it('gives every game of the genre, case-insensitively', async () => {
      const genre = someGame.genre;
      const expected = catalogue.games.filter((g) => g.genre === genre).map((g) => g.id);
      for (const asked of [genre, genre.toUpperCase(), genre.toLowerCase()]) {
        const res = await request(app)
          .get(`/api/games/genre/${encodeURIComponent(asked)}`)
          .expect(200);
        expect(res.body.map((g: { id: number }) => g.id)).to.have.members(expected);
      }
    });

    it('accepts a limit', async () => {
      const res = await request(app).get(`/api/games/genre/${someGame.genre}?limit=2`).expect(200);
      expect(res.body).to.have.length(2);
    });

    it('answers 400 for a bad limit', async () => {
      for (const limit of ['0', 'abc', '1001', '2.5', '-1', '']) {
        expectErrorBody(
          await request(app).get(`/api/games/genre/${someGame.genre}?limit=${limit}`),
          400,
        );
      }
      const repeated = await request(app).get(`/api/games/genre/${someGame.genre}?limit=1&limit=2`);
      expectErrorBody(repeated, 400);
      expect(repeated.body.details[0].field).to.equal('limit');
    });

    it('answers 404 for a genre no game has', async () => {
      expectErrorBody(await request(app).get('/api/games/genre/opera'), 404);
      expectErrorBody(await request(app).get('/api/games/genre'), 404);
    });
  });

  describe('GET /api/games/:id', () => {
    it('gives the full game', async () => {
      const res = await request(app).get(`/api/games/${someGame.id}`).expect(200);
      expect(res.body).to.deep.equal(someGame);
    });

    it('answers 404 for an unknown id', async () => {
      expectErrorBody(await request(app).get('/api/games/999999'), 404);
    });

    it('answers 400 for an id that is not an integer from 1 to the largest documented', async () => {
      const largest = Number.MAX_SAFE_INTEGER;
      const ids = ['abc', '0', '-1', '1.5', '1e3', '01', '%20', String(largest + 1)];
      for (const id of [...ids, '99999999999999999999']) {
        const res = await request(app).get(`/api/games/${id}`);
        expectErrorBody(res, 400);
        const message = `must be an integer from 1 to ${largest}`;
        expect(res.body.details).to.deep.equal([{ field: 'id', message }]);
        expect(res.body.error).to.equal(`The game id ${message}`);
      }
      expectErrorBody(await request(app).get(`/api/games/${largest}`), 404);
    });

    it('never reads top-rated, hidden-gems or genre as an id', async () => {
      for (const path of ['top-rated', 'hidden-gems']) {
        const res = await request(app).get(`/api/games/${path}`).expect(200);
        expect(res.body).to.be.an('array');
      }
      expect((await request(app).get('/api/games/genre')).status).to.equal(404);
    });

    it('reads /api/games/genre/recommendations as a genre, as the document says', async () => {
      const res = await request(app).get('/api/games/genre/recommendations');
      expectErrorBody(res, 404);
      expect(res.body.error).to.equal('No game has the genre recommendations');
    });
  });

  describe('GET /api/games/:id/recommendations', () => {
    it('gives three other games of the same genre', async () => {
      const res = await request(app).get(`/api/games/${someGame.id}/recommendations`).expect(200);
      expect(res.body).to.have.length(3);
      for (const item of res.body) {
        expect(item).to.have.all.keys(SUMMARY_KEYS);
        expect(item.genre).to.equal(someGame.genre);
        expect(item.id).to.not.equal(someGame.id);
      }
    });

    it('answers 404 for an unknown id and 400 for a bad one', async () => {
      expectErrorBody(await request(app).get('/api/games/999999/recommendations'), 404);
      expectErrorBody(await request(app).get('/api/games/x/recommendations'), 400);
    });
  });

  describe('errors', () => {
    it('answers unknown API paths with the JSON 404 body', async () => {
      const paths = ['/api', '/api/nope', '/api/games/1/nope', '/api/games/top-rated/x'];
      for (const path of paths) expectErrorBody(await request(app).get(path), 404);
    });
  });

  describe('service', () => {
    it('GET /healthz reports ok and the number of games', async () => {
      await request(app).get('/healthz').expect(200, { status: 'ok', games: catalogue.size });
    });
  });
});
