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
});
