import fs from 'node:fs';
import { expect } from 'chai';
import { fixtureService } from './fixture.js';

describe('pages', () => {
  it('look each template up on disk once, not at every render', async () => {
    const { app, request } = fixtureService();
    const server = app.callback();
    await request(server).get('/').expect(200);
    const looked: string[] = [];
    const stat = fs.stat;
    fs.stat = ((path: string, ...rest: unknown[]) => {
      looked.push(String(path));
      return (stat as (...args: unknown[]) => unknown)(path, ...rest);
    }) as typeof fs.stat;
    try {
      for (let i = 0; i < 3; i++) await request(server).get('/').expect(200);
    } finally {
      fs.stat = stat;
    }
    expect(looked.filter((path) => path.endsWith('.pug'))).to.deep.equal([]);
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
