import { expect } from 'chai';
import Koa from 'koa';
import request from 'supertest';
import { answerStable, CACHE_CONTROL } from '../src/cache-control.js';

describe('answerStable', () => {
  it('answers the body with the Cache-Control of data fixed while the process runs', async () => {
    const app = new Koa().use((ctx) => answerStable(ctx, { games: [1, 2] }));
    const res = await request(app.callback()).get('/').expect(200);
    expect(res.headers['cache-control']).to.equal('public, max-age=300');
    expect(res.headers['cache-control']).to.equal(CACHE_CONTROL.stable);
    expect(res.body).to.deep.equal({ games: [1, 2] });
  });

  it('sets nothing once a route has sent the headers, and the answer still ends', async () => {
    const app = new Koa().use((ctx) => {
      ctx.status = 200;
      ctx.flushHeaders();
      answerStable(ctx, { games: [1, 2] });
    });
    const res = await request(app.callback()).get('/').timeout(1500).expect(200);
    expect(res.headers['cache-control']).to.equal(undefined);
    expect(res.text).to.equal('{"games":[1,2]}');
  });
});
