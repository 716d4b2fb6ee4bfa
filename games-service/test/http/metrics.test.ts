import { expect } from 'chai';
import { request, seededApp } from '../helpers.js';

describe('GET /metrics', () => {
  it('counts requests by route template, never by raw path', async () => {
    const app = seededApp().callback();
    await request(app).get('/api/games/1').expect(200);
    await request(app).get('/api/games/2').expect(200);
    await request(app).get('/games/3').expect(200);
    const res = await request(app).get('/metrics').expect(200);
    expect(res.text).to.include(
      'http_request_duration_seconds_count{service="games-service",method="GET",route="/api/games/:id",status="200"} 2',
    );
    expect(res.text).to.include('route="/games/:id",status="200"');
    expect(res.text).to.not.match(/route="\/api\/games\/1"/);
  });

  it('is off with metrics: false (METRICS=false)', async () => {
    await request(seededApp({ metrics: false }).callback())
      .get('/metrics')
      .expect(404);
  });
});
