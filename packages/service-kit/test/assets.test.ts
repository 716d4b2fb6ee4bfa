import { expect } from 'chai';
import { fixtureService } from './fixture.js';

describe('assets', () => {
  const { app, request } = fixtureService();
  const server = app.callback();

  it('serves an asset for good under its versioned URL, to be revalidated otherwise', async () => {
    const page = await request(server).get('/').expect(200);
    const href = /href="(\/assets\/styles\.css\?v=[\w-]+)"/.exec(page.text)?.[1];
    expect(href).to.be.a('string');
    const current = await request(server).get(href!).expect(200).expect('Content-Type', /css/);
    expect(current.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    const stale = await request(server).get('/assets/styles.css?v=old').expect(200);
    expect(stale.headers['cache-control']).to.equal('no-cache');
    await request(server).get('/assets/missing.css').expect(404);
    await request(server).get('/assets/../fixture.ts').expect(404);
  });

  it('tags each asset with the hash its URL names, and answers 304 to that tag', async () => {
    const pages = await Promise.all(['/', '/docs'].map((path) => request(server).get(path)));
    const urls = [
      ...pages
        .map((page) => page.text)
        .join('')
        .matchAll(/"(\/assets\/[\w.-]+\?v=([\w-]+))"/g),
    ];
    const tags = new Set<string>();
    for (const [, url, version] of urls) {
      const { headers } = await request(server)
        .get(url as string)
        .expect(200);
      expect(headers.etag, url).to.equal(`W/"${version}"`);
      tags.add(headers.etag as string);
      await request(server)
        .get(url as string)
        .set('If-None-Match', headers.etag as string)
        .expect(304);
    }
    expect(tags.size, 'one tag per asset').to.equal(new Set(urls.map(([, url]) => url)).size);
    expect(tags.size).to.be.above(1);
  });
});
