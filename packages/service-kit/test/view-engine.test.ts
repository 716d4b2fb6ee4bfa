import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { compileViews } from '../bin/compile-views.js';
import { fixtureService } from './fixture.js';

describe('compiled views', () => {
  const views = join(import.meta.dirname, 'fixture', 'views');
  const out = join(mkdtempSync(join(tmpdir(), 'kit-views-')), 'views.js');

  it('render every page exactly as Pug does from the templates', async () => {
    const count = await compileViews(views, out);
    expect(count).to.equal(4); // error, home, layout and the kit's docs
    const compiled = fixtureService({ compiledViews: pathToFileURL(out) }).app.callback();
    const fromPug = fixtureService().app.callback();
    const { request } = fixtureService();
    for (const path of ['/', '/docs', '/no-such-page']) {
      const a = await request(compiled).get(path);
      const b = await request(fromPug).get(path);
      expect(a.status, path).to.equal(b.status);
      expect(a.text, path).to.equal(b.text);
      expect(a.text, path).to.include('&#xB7; Fixture</title>');
    }
  });

  it('fall back to Pug when the compiled module does not exist (running the sources)', async () => {
    const missing = pathToFileURL(join(tmpdir(), 'no-such-dir', 'views.js'));
    const { app, request } = fixtureService({ compiledViews: missing });
    const res = await request(app.callback()).get('/').expect(200);
    expect(res.text).to.include('<p>HELLO</p>');
  });
});
