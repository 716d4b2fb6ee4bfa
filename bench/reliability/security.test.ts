import { connect } from 'node:net';
import { expect } from 'chai';
import { send } from '../src/load.js';
import { type RunningProcess, type ServiceName, startService } from '../src/process.js';
import { freshCdFile } from './cd-store.js';
import { problemsWith } from './checks.js';

const MARKUP = '<script>alert("x")</script><img src=x onerror=alert(1)>';

/** Responses of every kind: pages, API answers, errors, assets. */
const PATHS: Record<ServiceName, string[]> = {
  'games-service': [
    '/',
    '/top-rated',
    '/hidden-gems',
    '/games/1',
    '/games/999999',
    '/nope',
    '/docs',
    '/api/games',
    '/api/games/1',
    '/api/games/abc',
    '/api/nope',
    '/openapi.json',
    '/healthz',
    '/random',
  ],
  'travel-service': [
    '/',
    '/itineraries/kyoto',
    '/itineraries/atlantis',
    '/nope',
    '/docs',
    '/api/itineraries',
    '/api/itineraries/kyoto',
    '/api/itineraries/%E0%A4%A',
    '/openapi.json',
    '/healthz',
  ],
  'cd-service': [
    '/cds',
    '/cds/abc',
    '/cds/00000000-0000-4000-8000-000000000000',
    '/nope',
    '/docs',
    '/openapi.json',
    '/healthz',
  ],
};

const REQUIRED_HEADERS = [
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
];

for (const name of ['games-service', 'travel-service', 'cd-service'] as const) {
  describe(`security of ${name}`, () => {
    let service: RunningProcess;
    before(async () => {
      service = await startService(name, {
        CD_DB_PATH: freshCdFile(),
        CD_SEED: 'false',
        ITINERARY_SEED: 'security',
      });
    });
    after(() => service?.stop());

    it('puts the security headers on every response, and leaks no stack or path', async () => {
      for (const path of PATHS[name]) {
        const res = await send(service.url, { path });
        for (const header of REQUIRED_HEADERS)
          expect(res.headers[header], `${header} on ${path}`).to.be.a('string');
        expect(problemsWith('GET', path, res), path).to.deep.equal([]);
      }
    });

    it('answers bytes that are not HTTP with the JSON error body, and stays up', async () => {
      const { port } = new URL(service.url);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () =>
          socket.write('GET /a b c HTTP/1.1\r\nHost: x\r\n\r\n'),
        );
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk;
        });
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      expect(answer).to.match(/^HTTP\/1\.1 400/);
      expect(answer).to.match(/content-type: application\/json/i);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).to.deep.equal({
        error: 'Malformed HTTP request',
        status: 400,
      });
      expect((await send(service.url, { path: '/healthz' })).status).to.equal(200);
    });

    if (name === 'travel-service') {
      it('never echoes markup from a destination parameter unescaped', async () => {
        for (const path of [
          `/itineraries/${encodeURIComponent(MARKUP)}`,
          `/itineraries/${encodeURIComponent('<b>x')}`,
          `/api/itineraries/${encodeURIComponent('<b>')}`,
          `/itineraries?destination=${encodeURIComponent(MARKUP)}`,
        ]) {
          const res = await send(service.url, { path });
          expect(res.status, path).to.be.oneOf([302, 400, 404]);
          expect(res.body.toString(), path)
            .to.not.include('<script>')
            .and.not.include('<b>')
            .and.not.include('<img');
        }
      });
    }

    if (name === 'cd-service') {
      it('stores markup as data and only ever serves it as JSON', async () => {
        const created = await send(service.url, {
          method: 'POST',
          path: '/cds',
          body: JSON.stringify({ title: MARKUP, artist: MARKUP, genre: 'Rock', releaseYear: 2000 }),
        });
        expect(created.status).to.equal(201);
        const { id } = JSON.parse(created.body.toString());
        for (const path of [`/cds/${id}`, '/cds', `/cds?artist=${encodeURIComponent(MARKUP)}`]) {
          const res = await send(service.url, { path });
          expect(res.headers['content-type'], path).to.match(/^application\/json/);
          expect(res.headers['x-content-type-options']).to.equal('nosniff');
          expect(JSON.parse(res.body.toString())).to.not.equal(undefined);
        }
        const docs = await send(service.url, { path: '/docs' });
        expect(docs.body.toString()).to.not.include(MARKUP);
      });
    }
  });
}
