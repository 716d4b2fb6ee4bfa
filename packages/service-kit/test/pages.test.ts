import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { fixtureService } from './fixture.js';

describe('pages', () => {
  for (const cacheViews of [true, false]) {
    it(`compile a template ${cacheViews ? 'once (cacheViews)' : 'at every render (cacheViews: false)'}`, async () => {
      const root = mkdtempSync(join(tmpdir(), 'kit-pages-'));
      cpSync(join(import.meta.dirname, 'fixture'), root, { recursive: true });
      const { app, request } = fixtureService({ root, cacheViews });
      const server = app.callback();
      expect((await request(server).get('/').expect(200)).text).to.include('<p>HELLO</p>');
      const home = join(root, 'views', 'home.pug');
      writeFileSync(home, readFileSync(home, 'utf8').replace('p=', 'p.changed='));
      const again = await request(server).get('/').expect(200);
      expect(again.text.includes('<p class="changed">HELLO</p>')).to.equal(!cacheViews);
    });
  }

  it('answer each of several requests rendering at once with its own page', async () => {
    const { app, request } = fixtureService();
    const server = app.callback();
    const paths = ['/', '/docs', '/no-such-page', '/', '/docs', '/no-such-page', '/', '/docs'];
    const answers = await Promise.all(paths.map((path) => request(server).get(path)));
    answers.forEach((res, i) => {
      const path = paths[i] as string;
      expect(res.status, path).to.equal(path === '/no-such-page' ? 404 : 200);
      expect(res.headers['content-type'], path).to.match(/^text\/html/);
      const own = { '/': '<p>HELLO</p>', '/docs': 'API reference', '/no-such-page': 'Error page' };
      expect(res.text, path).to.include(own[path as keyof typeof own]);
    });
  });

  it('render with the service helpers and the security headers', async () => {
    const { app, request } = fixtureService();
    const res = await request(app.callback()).get('/').expect(200);
    expect(res.text).to.include('<p>HELLO</p>');
    expect(res.headers['content-security-policy']).to.equal(
      "default-src 'self';img-src 'self' data:;object-src 'none';base-uri 'none';form-action 'self';frame-ancestors 'none'",
    );
    expect(res.headers['referrer-policy']).to.equal('strict-origin-when-cross-origin');
  });
});
